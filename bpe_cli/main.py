"""Entry point ``bpe-explorer``: routes sub-commands; with none (or only files) opens the app.

Each sub-command lives in its own module ``bpe_cli/cmd_<name>.py`` exposing
``register(subparsers)``, which adds its parser and sets ``func(args) -> int``. User errors
(:class:`~bpe_engine.errors.BpeEngineError`, unreadable files) print one line on stderr and exit 2.
Every message goes through :func:`bpe_engine.display.visible_text`, argparse's included, because
they quote file names and arguments, which may hold escape sequences.

The streams are the user's too: a closed standard output is an error (exit 2, never a silent
exit 0 with the output lost); a reader that goes away (``merges --json | head``) ends the command
quietly with status 141, as a program killed by SIGPIPE does.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from bpe_engine.display import visible_text
from bpe_engine.errors import BpeEngineError, SpecialTokenError
from bpe_engine.memory_budget import out_of_memory_line
from bpe_engine.special_text import shown_token

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

COMMANDS = (
    "train", "count", "encode", "chunk", "decode", "merges", "diff", "compare", "inspect", "models",
    "audit", "metrics", "languages", "overlap", "serve", "extend", "prune", "add-tokens", "chat",
)
EXIT_USER_ERROR = 2
EXIT_BROKEN_PIPE = 128 + 13  # what a shell reports for a process killed by SIGPIPE


class SafeArgumentParser(argparse.ArgumentParser):
    """argparse that shows user-supplied values (``invalid choice: '\\x1b[2J'``) in visible form."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            super()._print_message(visible_text(message, keep_newlines=True), file)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USER_ERROR, f"{self.prog}: error: {visible_text(message)}\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone: a command line that names one
    imports only its module (importing all fourteen, numpy and the trainers with them, was most
    of a one-shot ``encode``'s start-up)."""
    parser = SafeArgumentParser(
        prog="bpe-explorer",
        description="See how subword tokenizers work. Without a command, opens the explorer app.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if command is None else (command,):
        importlib.import_module(f"bpe_cli.cmd_{name.replace('-', '_')}").register(sub)  # add-tokens: cmd_add_tokens
    return parser


def error_line(message: str) -> str:
    """The one line a user error prints (visible form: paths and text may hold controls)."""
    return f"bpe-explorer: error: {visible_text(message)}"


def _say(message: str) -> None:
    if sys.stderr is not None:
        print(error_line(message), file=sys.stderr)


def _special_refusal(exc: SpecialTokenError) -> str:
    """The refusal in command-line words (the engine's names the modes, not the option)."""
    if exc.token is None:
        return f"{exc}; pass --special-mode special or --special-mode text"
    return (
        f"the text holds {shown_token(exc.token)}, special-token text of the tokenizer, and --special-mode is refuse; "
        "pass --special-mode special to encode it as the special token, or --special-mode text "
        "to encode it as ordinary text"
    )


def _user_error(exc: Exception) -> str:
    """The message of an error the user caused, in command-line words."""
    if isinstance(exc, SpecialTokenError):
        return _special_refusal(exc)
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename is not None else ""
        return f"{where}{exc.strerror or exc}"
    return str(exc)


def command_typo(word: str) -> str | None:
    """The command ``word`` is a typo of, when it is no file (the app would open it) and close to
    one: ``encodee hello`` said "cannot read encodee: No such file or directory".

    >>> command_typo("encodee"), command_typo("trian"), command_typo("corpus.txt")
    ('encode', 'train', None)
    """
    if word.startswith("-") or os.path.exists(word):
        return None
    close = difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.75)
    return close[0] if close else None


_OPTION = re.compile(r"--?[A-Za-z][\w-]*")


def option_typo(parser: argparse.ArgumentParser, argv: Sequence[str]) -> str | None:
    """The first option in ``argv`` (a command line starting with its command) that the command
    does not have, with the one it is closest to: argparse said "--tokenizer is required" for
    ``encode --tokenzier gpt2``, without a word about the misspelled option."""
    commands, known = _command_options(parser, argv)
    for arg in argv[1:]:
        if arg == "--":
            break
        name = arg.partition("=")[0]
        if not _OPTION.fullmatch(name) or name in known or (name.startswith("--") and any(o.startswith(name) for o in known)):
            continue
        close = difflib.get_close_matches(name, sorted(o for o in known if o.startswith("--")), n=1, cutoff=0.7)
        hint = f"; did you mean {close[0]}?" if close else f" ('bpe-explorer {commands} --help' lists its options)"
        return f"bpe-explorer {commands}: error: unknown option {name}{hint}"
    return None


def _command_options(parser: argparse.ArgumentParser, argv: Sequence[str]) -> tuple[str, set[str]]:
    """The command (and sub-command) ``argv`` names, and their option strings."""
    words: list[str] = []
    known: set[str] = set()
    for word in argv:
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)  # noqa: SLF001
        if sub is None or word not in sub.choices:
            break
        parser = sub.choices[word]
        words.append(word)
        known.update(parser._option_string_actions)  # noqa: SLF001
    return " ".join(words), known


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help")):
        meant = command_typo(argv[0]) if argv else None
        if meant is not None:
            _say(f"unknown command {argv[0]!r}; did you mean {meant}? ('bpe-explorer --help' lists the commands)")
            return EXIT_USER_ERROR
        from tui.launch import run_app  # imported late: the CLI commands never load Textual

        return run_app(argv)
    if sys.stdout is None:
        _say("standard output is closed; nothing to write the result to (redirect it to a file or /dev/null)")
        return EXIT_USER_ERROR
    parser = build_parser(argv[0] if argv[0] in COMMANDS else None)
    typo = option_typo(parser, argv)
    if typo is not None:
        if sys.stderr is not None:
            print(visible_text(typo), file=sys.stderr)
        return EXIT_USER_ERROR
    args = parser.parse_args(argv)
    try:
        status = int(args.func(args) or 0)
        sys.stdout.flush()  # inside the try: a failing write is reported, not lost at exit
        return status
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except (BpeEngineError, OSError, UnicodeDecodeError) as exc:
        _say(_user_error(exc))
        return EXIT_USER_ERROR
    except MemoryError:  # estimates missed it: the input read last and the way out, never a traceback
        _say(out_of_memory_line())
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        if sys.stderr is not None:
            print("bpe-explorer: interrupted", file=sys.stderr)
        return 130


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
