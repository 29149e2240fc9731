"""The one reader of every file the user names: corpora, tokenizer files, saved
directories' files, counts files, the app's ctrl+o -- all go through :func:`check_input`, :func:`open_input`
or :func:`read_input` (and, for a corpus text, :func:`read_text_file`).

What a name may be. A regular file is read; a stream -- standard input (``-``), a named pipe, a
process substitution (``<(zcat c.gz)``, ``/dev/fd/63``), a device named as a corpus -- only where
the caller takes one (``streams=True``: a corpus, a counts file, ``chunk``'s text), and then it
is read in bounded blocks by the streaming readers. A symlink is followed and named with its
target, and refused when it points at a device: a saved directory whose ``tokenizer.json`` was a
symlink to ``/dev/zero`` read until ``MemoryError``. A directory, a pipe where a file is wanted,
a missing name: one line each.

Sizes are checked before anything is read: a whole-file read (:func:`read_input`) is refused
when the file would not fit in the memory the process may still use
(:func:`bpe_engine.memory_budget.available_memory`, every limit it runs under) once parsed
(``per_byte``), and it never reads past the size it saw (a file that grows is refused, not
followed). Each input read is recorded (:func:`bpe_engine.memory_budget.note_input`) so that
running out of memory anyway names it.

Same bytes everywhere: a corpus text is decoded as UTF-8 exactly as stored -- CRLF stays CRLF (as
Hugging Face's trainers read files, and as ``bpe-explorer train`` counts them), a BOM stays a
BOM (the app shows it as ``<BOM>``). Python's ``read_text`` translates newlines; that made ctrl+o
train different merges than the command line on the same file. A file that is not UTF-8 text gets
one message that says what to do, in the wording the training reader uses
(:func:`bpe_engine.corpus.documents.utf8_error`): which byte, where, and the way out.

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "crlf.txt"
>>> _ = p.write_bytes(b"a\\r\\nb")
>>> read_text_file(p)
'a\\r\\nb'
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from .display import visible_text
from .errors import BpeEngineError, CorpusError
from .memory_budget import available_memory, note_input, size_text

if TYPE_CHECKING:
    from .corpus.block_text import BlockText

BINARY_SNIFF = 8192  # bytes looked at for a NUL: text files have none, binary files almost always do
TEXT_BYTES_PER_BYTE = 6
"""Memory per byte of a corpus text read whole: its bytes, the decoded ``str`` (up to 4 bytes a
character) and the app's blocks."""
_NAMED_STREAMS = ("/dev/stdin", "/dev/fd/", "/proc/self/fd/")
"""Names that stand for an open stream (``<(zcat c.gz)`` is ``/dev/fd/63``): symlinks by nature."""

Fail = Callable[[str], BpeEngineError]
"""Builds the caller's error from a reason (``is a directory, expected a tokenizer file``)."""


def corpus_failure(path: str | Path, what: str = "corpus file") -> Fail:
    """Errors worded as the corpus readers have them: ``cannot read corpus file X: why``."""
    return lambda reason: CorpusError(f"cannot read {what} {visible_text(str(path))}: {reason}")


@dataclass(frozen=True, slots=True)
class Checked:
    """A name checked for reading: how messages show it, its size (None: a stream), and what it is."""

    path: str
    shown: str
    size: int | None
    kind: str  # "file", "standard input", "a named pipe", "a character device", ...


def check_input(path: str | Path, *, fail: Fail, expected: str = "a file", streams: bool = False) -> Checked:
    """What ``path`` is, checked before it is opened (see the module docstring); ``fail`` builds
    the error for a name that cannot be read as ``expected``."""
    name = str(path)
    shown = visible_text(name)
    if name == "-":
        if not streams:
            raise fail(f"standard input cannot be read here, expected {expected}")
        return Checked(name, "<stdin>", None, "standard input")
    full = os.path.expanduser(name)
    try:
        mode = os.stat(full).st_mode
        size = os.stat(full).st_size
    except OSError as exc:
        raise fail(exc.strerror or str(exc)) from None
    linked = os.path.islink(full) and not full.startswith(_NAMED_STREAMS)
    target = f" (a symlink to {visible_text(os.path.realpath(full))})" if linked else ""
    if stat.S_ISREG(mode):
        return Checked(full, shown, size, "file")
    kind = _kind(mode)
    if stat.S_ISDIR(mode):
        raise fail(f"is a directory{target}, expected {expected}")
    device = stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
    if not streams or (device and linked):
        raise fail(f"is {kind}{target}, not a regular file; expected {expected}")
    return Checked(full, shown, None, kind)


def open_input(
    path: str | Path, *, fail: Fail, expected: str = "a file", streams: bool = False, ways: str = ""
) -> tuple[Checked, IO[bytes]]:
    """:func:`check_input`, then the open binary handle (standard input's for ``-``); recorded
    with ``ways`` (the options that bound it) for the out-of-memory line."""
    checked = check_input(path, fail=fail, expected=expected, streams=streams)
    try:
        if checked.path == "-":  # its own descriptor: closing the handle leaves standard input open
            handle: IO[bytes] = os.fdopen(os.dup(sys.stdin.fileno()), "rb")
        else:
            handle = open(checked.path, "rb")  # noqa: SIM115 - the caller closes it
    except (OSError, ValueError, AttributeError) as exc:  # a closed or replaced standard input
        raise fail(getattr(exc, "strerror", None) or str(exc) or "standard input is closed") from None
    note_input(checked.shown, checked.size, ways)
    return checked, handle


def read_input(
    path: str | Path,
    *,
    fail: Fail,
    expected: str = "a file",
    per_byte: float = 1.0,
    max_bytes: int | None = None,
    ways: str = "",
    budget: int | None = None,
) -> bytes:
    """A regular file's bytes, whole: refused before reading when larger than ``max_bytes`` or
    when ``per_byte`` bytes of memory per byte (what the caller builds from it) would not fit in
    ``budget`` (default: :func:`~bpe_engine.memory_budget.available_memory`)."""
    checked = check_input(path, fail=fail, expected=expected)
    size = checked.size or 0
    if max_bytes is not None and size > max_bytes:
        raise fail(f"is {size_text(size)}, more than the {size_text(max_bytes)} such a file may be")
    room = available_memory() if budget is None else budget
    bound = max_bytes if room is None else int(room / max(per_byte, 1.0))
    if max_bytes is not None:
        bound = min(bound or max_bytes, max_bytes)
    if bound is not None and size > bound:
        raise fail(_too_large(size, per_byte, room, ways))
    note_input(checked.shown, size, ways)
    try:
        with open(checked.path, "rb") as handle:
            data = handle.read(size + 1)
            if len(data) > size:  # it grew since its size was read (or reports none: /proc)
                data += handle.read((bound or size) + 1 - len(data))
    except OSError as exc:
        raise fail(exc.strerror or str(exc)) from None
    if bound is not None and len(data) > bound:
        raise fail(f"grew past {size_text(bound)} while it was read; read a file that is not being written")
    return data


def read_text_file(path: str | Path) -> str:
    """The file's text, byte for byte; :class:`CorpusError` (one line, with the fix) otherwise."""
    shown, data = _text_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _not_utf8(shown, data, exc) from None


def read_text_blocks(path: str | Path) -> BlockText:
    """:func:`read_text_file` as a :class:`~bpe_engine.corpus.block_text.BlockText`: the same
    text and the same errors, decoded a part at a time and held in blocks -- what the app keeps
    of a corpus (one emoji made a whole 50 MB file 200 MB as one ``str``)."""
    from .corpus.block_text import BlockText  # the corpus package reads its files through this module

    shown, data = _text_bytes(path)
    try:
        return BlockText.decode(data)
    except UnicodeDecodeError as exc:
        raise _not_utf8(shown, data, exc) from None


def _text_bytes(path: str | Path) -> tuple[str, bytes]:
    """The file's name as shown in messages, and its bytes once checked to be no binary file."""
    shown = visible_text(str(path))

    def fail(reason: str) -> CorpusError:
        if reason.startswith("is a directory"):
            return CorpusError(f"{shown} {reason.replace('expected', 'open')}")
        return CorpusError(f"cannot read {shown}: {reason}")

    data = read_input(path, fail=fail, expected="a text file", per_byte=TEXT_BYTES_PER_BYTE, ways="open a smaller text file")
    nul = data.find(b"\x00", 0, BINARY_SNIFF)
    if nul >= 0:
        raise CorpusError(
            f"{shown} looks like a binary file (NUL byte at offset {nul}), not text; open a UTF-8 text file, "
            f"or train byte-level on its raw bytes with: bpe-explorer train {shown} --vocab-size N -o DIR"
        )
    return shown, data


def _kind(mode: int) -> str:
    for test, kind in (
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a directory"),
    ):
        if test(mode):
            return kind
    return "not a regular file"


def _too_large(size: int, per_byte: float, room: int | None, ways: str) -> str:
    need = size * per_byte
    where = f"the {size_text(room)} this process may still use" if room is not None else "the limit given"
    return f"is {size_text(size)}: read whole it needs ~{size_text(need)}, more than {where}" + (f"; {ways}" if ways else "")


def _not_utf8(shown: str, data: bytes, exc: UnicodeDecodeError) -> CorpusError:
    return CorpusError(
        f"{shown}: not valid UTF-8 (byte {data[exc.start]:#04x} at offset {exc.start}); the explorer needs "
        f"UTF-8 text: convert it first (e.g. iconv -f latin1 -t utf-8), or train byte-level on its raw bytes "
        f"with: bpe-explorer train {shown} --vocab-size N -o DIR"
    )
