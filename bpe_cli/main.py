"""Entry point ``bpe-explorer``: routes sub-commands; with none (or only files) opens the app.

Each sub-command lives in its own module ``bpe_cli/cmd_<name>.py`` exposing
``register(subparsers)``, which adds its parser and sets ``func(args) -> int``. User errors
(:class:`~bpe_engine.errors.BpeEngineError`, unreadable files) print one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from bpe_engine.errors import BpeEngineError

COMMANDS = ("train", "encode", "decode", "merges", "compare", "inspect", "models")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bpe-explorer",
        description="See how subword tokenizers work. Without a command, opens the explorer app.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"bpe_cli.cmd_{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help")):
        from tui.launch import run_app  # imported late: the CLI commands never load Textual

        return run_app(argv)
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BpeEngineError as exc:
        print(f"bpe-explorer: error: {exc}", file=sys.stderr)
        return 2
    except (OSError, UnicodeDecodeError) as exc:
        print(f"bpe-explorer: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bpe-explorer: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
