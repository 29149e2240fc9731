"""Shared rich helpers for the CLI: consoles, safe token rendering, tables and progress.

Everything shown comes from user data (corpus text, token bytes), so it is always turned into a
visible plain string first (:mod:`bpe_engine.display`) and put into ``rich.text.Text`` objects --
never into markup strings -- so neither ``[bold]`` in a corpus nor an ESC byte in a token can
style or drive the terminal. Machine output (``--json``) writes text as it is (한국어, not
``\\ud55c...``), escaping only what could act on a terminal or is no character (:func:`json_text`).
"""

from __future__ import annotations

import errno
import json
import re
import sys
import time
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeElapsedColumn
from rich.text import Text

from bpe_engine.core.byte_table import token_str_to_bytes
from bpe_engine.display import token_label, token_str_label, visible_text
from bpe_engine.errors import ConfigError

# Alternating backgrounds make token boundaries visible without separators that could be
# mistaken for token text; specials get their own style.
TOKEN_STYLES = ("black on #a6e3a1", "black on #89b4fa", "black on #f9e2af", "black on #f5c2e7", "black on #94e2d5")
SPECIAL_STYLE = "bold white on #d20f39"
UNKNOWN_STYLE = "bold black on #fab387 underline"
UNKNOWN_MARK = "?"
"""How an unknown piece's id shows in the ids line (it has no id when the vocabulary has no unk)."""


class _StdoutConsole(Console):
    """A Console whose closed pipe ends the command as every other write does (``main`` exits
    141 quietly); Rich's own handler raised ``SystemExit(1)``, so ``encode ... | head`` exited 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, "the reader of standard output went away")


ADDED_TOKENS_RULE = "tokens: the text's own; tokens a tokenizer adds ([CLS], [SEP], <s>) not counted"
"""The one counting rule of ``compare``, ``metrics`` and ``languages``, said under their tables."""


def stdout_console() -> Console:
    """Console on the current ``sys.stdout`` (so pytest's capsys sees it); no auto-highlighting."""
    return _StdoutConsole(file=sys.stdout, highlight=False, soft_wrap=True)


def stderr_console() -> Console:
    """Console on the current ``sys.stderr`` for progress and notes."""
    return Console(file=sys.stderr, highlight=False, soft_wrap=True)


_JSON_HAZARD = re.compile(r"[^\x20-\x7e]")
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Cn", "Co", "Zl", "Zp"})


def _escape_hazard(match: re.Match[str]) -> str:
    ch = match.group()
    if unicodedata.category(ch) not in _HIDDEN:
        return ch
    code = ord(ch)
    if code > 0xFFFF:  # a surrogate pair, as JSON spells a character beyond the BMP
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(value: Any) -> str:
    """``value`` as one line of JSON with its text as it is (``ensure_ascii`` escaped every
    non-ASCII character: 한 was ``\\ud55c``), but every control, C1, bidi, zero-width, private or
    unassigned character and every lone surrogate escaped: inert on a terminal, encodable as
    UTF-8, and the same value for a JSON reader.

    >>> json_text({"t": "한\\u202e\\x9b\\ud800"})
    '{"t": "한\\\\u202e\\\\u009b\\\\ud800"}'
    """
    return _JSON_HAZARD.sub(_escape_hazard, json.dumps(value, ensure_ascii=False))


def print_json(data: Any) -> None:
    """One line of JSON on stdout (:func:`json_text`)."""
    sys.stdout.write(json_text(data) + "\n")
    sys.stdout.flush()


def token_json_fields(data: bytes) -> dict[str, Any]:
    """A token's bytes for ``--json``, the same in every command: ``text`` is the exact text when
    the bytes are whole UTF-8 (else ``null``: a token may hold part of a character) and ``bytes``
    the exact bytes in hex, always."""
    try:
        text: str | None = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    return {"text": text, "bytes": data.hex()}


class _StdinReader:
    """Standard input's bytes, read as asked; a descriptor that fails mid-way is one clear error."""

    def __init__(self, raw: IO[bytes], purpose: str) -> None:
        self._raw, self._purpose = raw, purpose

    def read(self, size: int = -1) -> bytes:
        try:
            return self._raw.read(size)
        except (OSError, ValueError) as exc:  # a closed or unreadable descriptor
            why = getattr(exc, "strerror", None) or exc
            raise ConfigError(f"standard input cannot be read ({why}); {self._purpose}") from None


def stdin_stream(purpose: str) -> IO[bytes]:
    """Standard input as a byte stream; a closed stdin (``<&-``) is one clear error, not a traceback."""
    stream = sys.stdin
    if stream is None or getattr(stream, "buffer", None) is None:
        raise ConfigError(f"standard input is closed; {purpose}")
    return _StdinReader(stream.buffer, purpose)  # type: ignore[return-value]  # read() is all its readers use


def read_stdin_bytes(purpose: str) -> bytes:
    """All of standard input (:func:`stdin_stream`)."""
    return stdin_stream(purpose).read()


def say(console: Console, message: str, style: str = "") -> None:
    """Print one line of our own words that quotes user values (paths, names): visible, no markup."""
    console.print(Text(visible_text(message), style=style))


def note(message: str) -> None:
    """A note for the user on stderr (special-token text, unknown pieces, trainer notes)."""
    say(stderr_console(), f"note: {message}", "yellow")


def label_for(tokenizer: Any, token_id: int, token: str | None = None) -> str:
    """Readable, inert label of a token id for terminal display; never contains a plain space.

    Byte-level tokens are labelled from their bytes (``Ġ`` for a space, ``<0xED>`` for a partial
    character); character-level ones from their model string (``▁the``, ``lo</w>``) with any raw
    space shown as ``␣``. An unknown piece without an id is labelled from ``token``, its symbol.
    """
    byte_level = tokenizer.capabilities.byte_level
    if token_id < 0:
        return token_str_label(token or "")
    if byte_level:
        return token_label(tokenizer.token_bytes(token_id), byte_level=byte_level)
    return token_str_label(tokenizer.token_str(token_id))


def model_token_label(token: str, *, byte_level: bool) -> str:
    """Label of a token given in the model alphabet (merges lists): byte tokens by their bytes,
    others by :func:`~bpe_engine.display.token_str_label` (a raw space as ``␣``: no blank cell)."""
    if byte_level:
        try:
            return token_label(token_str_to_bytes(token), byte_level=True)
        except KeyError:  # a special or added token outside the byte table
            pass
    return token_str_label(token)


def token_line(
    labels: Sequence[str],
    special: Sequence[bool] | None = None,
    *,
    color: bool = True,
    unknown: Sequence[bool] | None = None,
    start: int = 0,
) -> Text:
    """The tokens side by side, each on an alternating background (specials highlighted, unknown
    pieces marked with a leading ``?`` and their own style).

    Without colour (a pipe, ``NO_COLOR``) tokens are separated by single spaces instead: labels
    never contain a plain space, so the boundaries stay unambiguous. ``start`` is the index of
    ``labels[0]`` in the whole line, for a line printed in pieces (:func:`print_token_line`).
    """
    out = Text()
    flags = special or [False] * len(labels)
    unknown_flags = unknown or [False] * len(labels)
    for i, (label, is_special, is_unknown) in enumerate(zip(labels, flags, unknown_flags), start):
        if not color:  # no styles at all: Rich renders one plain run instead of a span per token
            out.append((" " if i else "") + (UNKNOWN_MARK if is_unknown else "") + label)
            continue
        if is_unknown:
            out.append(UNKNOWN_MARK + label, style=UNKNOWN_STYLE)
        else:
            out.append(label, style=SPECIAL_STYLE if is_special else TOKEN_STYLES[i % len(TOKEN_STYLES)])
    return out


LINE_PIECE = 4096
"""Tokens (or ids) per piece of a long line: Rich renders one piece at a time, so memory stays
bounded -- one Text of 1,250,000 tokens (``encode`` of 5 MB) peaked at 1.6 GB."""


def print_token_line(
    console: Console,
    labels: Sequence[str],
    special: Sequence[bool],
    unknown: Sequence[bool],
    *,
    start: int = 0,
    end: str = "\n",
) -> None:
    """:func:`token_line` of every token, printed piece by piece (the same characters), then
    ``end``; ``start``: the index of ``labels[0]`` in a line printed over several calls."""
    color = has_color(console)
    for first in range(0, len(labels), LINE_PIECE):
        last = first + LINE_PIECE
        piece = token_line(
            labels[first:last], special[first:last], color=color, unknown=unknown[first:last], start=start + first
        )
        console.print(piece, end="")
    console.print(end=end)


def has_color(console: Console) -> bool:
    """Whether ``console`` will show the token backgrounds."""
    return console.color_system is not None and not console.no_color


def safe_text(text: str, style: str = "", *, keep_newlines: bool = False) -> Text:
    """User text as an inert Text (controls and bidi characters shown visibly)."""
    return Text(visible_text(text, keep_newlines=keep_newlines), style=style)


class RateColumn(ProgressColumn):
    """Completed units per second since the task started (rich's speed is a short moving window)."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        rate = task.completed / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:,.0f} {self.unit}/s", style="progress.data.speed")


def training_progress(console: Console, unit: str = "merges") -> Progress:
    """The training progress bar: the kind of the last step, steps done / target, ``unit`` per
    second (a trainer's declared unit: merges, steps), elapsed time."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(unit),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    )


class Throttle:
    """True at most every ``interval`` seconds: progress updates cost a lock and a redraw."""

    def __init__(self, interval: float = 0.05) -> None:
        self.interval = interval
        self._next = 0.0

    def ready(self) -> bool:
        now = time.monotonic()
        if now >= self._next:
            self._next = now + self.interval
            return True
        return False


def note_special_text(tokenizers: Sequence[Any], text: str, mode: str) -> None:
    """Say on stderr when ``text`` spells special tokens of any of ``tokenizers`` and how
    ``mode`` treated them, naming ``--special-mode`` (one note per set of tokens found)."""
    from bpe_engine.special_text import find_special_text, special_text_note

    if mode == "refuse":
        return  # refusing already says so, as an error
    by_found: dict[tuple[str, ...], list[str]] = {}
    for tok in tokenizers:
        specials = tok.special_tokens
        found = find_special_text(text, specials) if specials else ()
        if found:
            by_found.setdefault(found, []).append(tok.name)
    for found, names in by_found.items():
        message = special_text_note(found, mode, ", ".join(names), option="--special-mode")
        if message:
            note(message)


class RawJson(str):
    """Items of a JSON array already written as JSON text (one, or several joined by ``", "``):
    :func:`print_json_stream` writes them as they are. ``encode --json`` lays out a block's
    250,000 tokens at once this way, instead of one ``json_text`` call per token."""


def print_json_stream(fields: Iterable[tuple[str, Any]]) -> None:
    """One JSON object on one line, written as it is produced: a field whose value is an
    iterator (not a list) is streamed as an array, so a 600,000-token inspection never holds its
    whole JSON text (or all its dicts) in memory. Same text as ``print_json`` of the finished dict.
    ``fields`` may be a generator: each field is asked for once the one before it is written."""
    write = sys.stdout.write
    write("{")
    for n, (key, value) in enumerate(fields):
        write(("" if n == 0 else ", ") + json.dumps(key) + ": ")
        if isinstance(value, Iterator):
            write("[")
            separator = ""
            for item in value:
                if isinstance(item, RawJson):
                    if item:
                        write(separator)
                        write(item)  # no concatenation: a copy of a large item
                        separator = ", "
                else:
                    write(separator + json_text(item))
                    separator = ", "
            write("]")
        else:
            write(json_text(value))
    write("}\n")
    sys.stdout.flush()


def open_tokenizer(spec: str) -> Any:
    """The tokenizer a command-line spec names (row specs of compare included: ``characters``,
    ``words``), with what its loader wants said (a rank file's gaps, ...) printed as notes."""
    from bpe_engine.compare.resolve import resolve_tokenizer

    tokenizer = resolve_tokenizer(spec)
    for message in tokenizer.notes:
        note(message)
    return tokenizer
