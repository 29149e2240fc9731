"""The counts file: a corpus reduced to ``piece<TAB>count`` rows, the unit of scale-out.

Training needs only word -> count, so ``bpe-explorer count`` writes that table (on this machine
or a Dask cluster), ``count`` merges several, and ``train --from-counts`` trains from them with
exactly the merges of training on the text itself. The format, version 1::

    #bpe-explorer-counts {"version": 1, "pre_tokenizer": "gpt2", "level": "byte", ...}<TAB>1
    the<TAB>52341
     the<TAB>48113
    ...

- **Rows**: UTF-8 text, one row per line, each ``piece<TAB>count`` with a ``\\n`` line end.
- **Header**: the first row, whose piece is ``#bpe-explorer-counts `` and a JSON object:
  ``version``, ``pre_tokenizer`` (name) and ``pattern`` (for ``regex``), ``level`` (``byte`` or
  ``char``), ``specials`` (cut out before counting), ``lines`` (each line was a document),
  ``documents``, ``words`` (total), ``unique`` (each piece occurs once) and ``tool``. Its count
  is 1 so that every row of the file is a valid ``word<TAB>freq`` row: SentencePiece's
  ``--input_format=tsv`` reads the file as it is (the header is then one sentence of frequency
  1 among the others; ``count --no-header`` leaves it out). A file without the header is read
  too, with the pre-tokenizer and level the caller names.
- **Pieces**: the pre-tokenizer's pieces as raw text -- for byte-level counts the pieces' bytes,
  not GPT-2 byte characters -- escaped so that any byte string round-trips: ``\\\\`` for a
  backslash, ``\\t``, ``\\n``, ``\\r``, and ``\\xHH`` for every other control character (C0, DEL)
  and for every byte that is not part of valid UTF-8 (a byte-level piece may cut a character).
- **Counts**: decimal, from 1 to 2**63 - 1: 64-bit, like SentencePiece's frequencies. Sums of
  counts are exact Python integers everywhere (Hugging Face keeps pair counts in 32 bits and
  wraps past 2**32; see ``tests/test_counts_file.py``).
- **Order**: first appearance in the corpus; the ``first-seen`` tie-break depends on it, and it
  makes merging files deterministic (rows of later files append their new pieces).

>>> escape_piece(b" caf\\xc3\\xa9\\t\\\\\\xed\\x95")
' café\\\\t\\\\\\\\\\\\xed\\\\x95'
>>> unescape_piece(escape_piece(b" caf\\xc3\\xa9\\t\\\\\\xed\\x95").encode())
b' caf\\xc3\\xa9\\t\\\\\\xed\\x95'
"""

from __future__ import annotations

import codecs
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import nullcontext
from dataclasses import replace
from itertools import islice
from pathlib import Path
from typing import IO

from ..atomic import atomic_writer
from ..errors import CorpusError
from .counting import BYTE_DECODING_TABLE, WordCounts, add_part
from .counts_header import FORMAT_VERSION, HEADER_PREFIX, CountsHeader, parse_header
from .documents import is_stream
from ..text_files import corpus_failure, open_input
from .table_size import WAYS_OUT, TableWatch

MAX_COUNT = 2**63 - 1

_BYTE_ENCODING_MAP = codecs.charmap_build(BYTE_DECODING_TABLE)
_NEEDS_ESCAPE = re.compile(rb"[\x00-\x1f\x7f\\]")
_CONTROLS = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F]} | {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}
_ESCAPE = re.compile(rb"\\(x[0-9a-fA-F]{2}|[\\tnr])|\\")
_UNESCAPED = {b"\\": b"\\", b"t": b"\t", b"n": b"\n", b"r": b"\r"}


# -- pieces -------------------------------------------------------------------------------------
def escape_piece(raw: bytes) -> str:
    """A piece's bytes as the text of its column (see the module docstring)."""
    if _NEEDS_ESCAPE.search(raw) is None:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            pass
    text = raw.replace(b"\\", b"\\\\").decode("utf-8", "backslashreplace")
    return text.translate(_CONTROLS)


def unescape_piece(column: bytes) -> bytes:
    """The piece's bytes from its column; a backslash that starts no escape is a :class:`ValueError`."""
    if b"\\" not in column:
        return column

    def one(match: re.Match[bytes]) -> bytes:
        code = match.group(1)
        if code is None:
            raise ValueError(f"a backslash that starts no escape in {column[:60]!r}")
        return bytes([int(code[1:], 16)]) if code[:1] == b"x" else _UNESCAPED[code]

    return _ESCAPE.sub(one, column)


def piece_bytes(word: str, *, byte_level: bool) -> bytes:
    """A counted word's raw bytes (byte-level words are stored in GPT-2 byte characters)."""
    if byte_level:
        return codecs.charmap_encode(word, "strict", _BYTE_ENCODING_MAP)[0]
    return word.encode("utf-8", "surrogateescape")


# -- writing ------------------------------------------------------------------------------------
def write_counts(
    target: str | Path, counts: WordCounts, header: CountsHeader | None, *, min_count: int = 1
) -> int:
    """Write ``counts`` (``-``: standard output), atomically for a file; the rows written.

    ``header=None`` leaves the header row out. Words below ``min_count`` are left out.
    """
    sink = nullcontext(sys.stdout.buffer) if str(target) == "-" else atomic_writer(target)
    rows = 0
    with sink as handle:
        if header is not None:
            handle.write(header.row())
        rows = _write_rows(handle, counts, min_count)
        handle.flush()
    return rows


def _write_rows(handle: IO[bytes], counts: WordCounts, min_count: int) -> int:
    byte_level = counts.byte_level
    lines: list[str] = []
    rows = 0
    for word, n in counts.counts.items():
        if n < min_count:
            continue
        if n > MAX_COUNT:
            raise CorpusError(f"the count of {word!r} ({n:,}) does not fit in 64 bits; counts files hold 1 to 2**63 - 1")
        try:
            raw = piece_bytes(word, byte_level=byte_level)
        except UnicodeEncodeError:
            raise CorpusError(f"the piece {word!r} holds a lone surrogate: it has no bytes to write") from None
        lines.append(f"{escape_piece(raw)}\t{n}\n")
        rows += 1
        if len(lines) >= 10_000:
            handle.write("".join(lines).encode("utf-8"))
            lines.clear()
    handle.write("".join(lines).encode("utf-8"))
    return rows


# -- reading ------------------------------------------------------------------------------------
HEADER_BYTES = 1 << 20
"""The most of a first line read to look for a header (a header is a few hundred bytes)."""
_WATCH_ROWS = 1 << 16
"""Rows added between two looks of the memory watch."""


def read_header(path: str | Path) -> CountsHeader | None:
    """The header of a counts file, or None when the file does not start with one. A pipe or a
    device is not looked into (it can be read only once, by :func:`read_counts`): None."""
    if is_stream(path):
        return None
    handle = _open(path)
    with handle:
        first = handle.readline(HEADER_BYTES)
    return parse_header(first, str(path))


def read_counts(
    paths: Sequence[str | Path],
    *,
    default: CountsHeader | None = None,
    min_count: int = 1,
    memory_budget: int | None = None,
    training: bool = True,
) -> tuple[WordCounts, CountsHeader]:
    """Add up counts files in order; the table and the header they share.

    Every file with a header must agree on pre-tokenizer, level and specials; a file without
    one is taken to match (``default`` describes them when no file has a header). Words whose
    total is below ``min_count`` are dropped -- while reading, when a single file says each
    piece occurs once in it (so only the kept words are ever held), else after adding up.
    Each file is opened once (a pipe, ``<(zcat counts.tsv.gz)``, is read once). The table is
    watched as it grows, as when counting a corpus (:class:`.table_size.TableWatch`, against
    ``memory_budget``; default: the memory available now): reading stops with the ways out as
    soon as the table would not fit once training starts (``training=False``: the table alone).
    """
    opened: list[tuple[str, IO[bytes], bytes, CountsHeader | None]] = []
    try:
        for p in paths:
            handle = _open(p)
            opened.append((str(p), handle, first := handle.readline(HEADER_BYTES), parse_header(first, str(p))))
        return _read_opened(opened, default, min_count, memory_budget, training)
    finally:
        for _, handle, _, _ in opened:
            handle.close()


def _read_opened(
    opened: list[tuple[str, IO[bytes], bytes, CountsHeader | None]],
    default: CountsHeader | None,
    min_count: int,
    memory_budget: int | None,
    training: bool,
) -> tuple[WordCounts, CountsHeader]:
    named = [(p, h) for p, _, _, h in opened if h is not None]
    header = named[0][1] if named else (default or CountsHeader())
    for path, other in named[1:]:
        if other.settings() != header.settings():
            raise CorpusError(
                f"{path} was counted with {_describe(other)} but {named[0][0]} with {_describe(header)}: "
                "counts add up only when pre-tokenizer, level and special tokens are the same"
            )
    filter_early = len(opened) == 1 and header.unique and min_count > 1
    sizes = [None if is_stream(p) else Path(p).stat().st_size for p, _, _, _ in opened]
    total = None if None in sizes else sum(s or 0 for s in sizes)
    watch = TableWatch(total, memory_budget, min_count=1 if filter_early else min_count, training=training)
    table: dict[str, int] = {}
    done = [0]
    for path, handle, first, own in opened:
        rows = _rows(path, _lines(first, handle, skip_first=own is not None), header.byte_level, done)
        if filter_early:
            rows = ((w, n) for w, n in rows if n >= min_count)
        while batch := list(islice(rows, _WATCH_ROWS)):
            add_part(table, batch)
            watch.update(done[0], table)
    if min_count > 1 and not filter_early:
        table = {w: n for w, n in table.items() if n >= min_count}
    documents = sum(h.documents or 0 for _, h in named) if named else 0
    merged = replace(header, documents=documents or None, words=sum(table.values()), unique=True)
    return WordCounts(table, header.byte_level, documents=documents, total_words=merged.words or 0), merged


def _open(path: str | Path) -> IO[bytes]:
    """The counts file opened through the one reader: a file, standard input or a pipe
    (``<(zcat counts.tsv.gz)``); never a device behind a symlink."""
    return open_input(
        path, fail=corpus_failure(path, "counts file"), expected="a counts file", streams=True, ways=WAYS_OUT
    )[1]


def _lines(first: bytes, handle: IO[bytes], *, skip_first: bool) -> Iterator[tuple[int, bytes]]:
    """(line number, line) of a file whose first line (up to :data:`HEADER_BYTES`) was read
    already: the header is skipped; a longer first line is read to its end."""
    if not skip_first and first:
        yield 1, first if first.endswith(b"\n") else first + handle.readline()
    for number, line in enumerate(handle, start=2):
        yield number, line


def _rows(path: str, lines: Iterator[tuple[int, bytes]], byte_level: bool, done: list[int]) -> Iterator[tuple[str, int]]:
    """(word, count) of every row, words as the trainer stores them; ``done[0]`` counts the bytes."""
    for number, line in lines:
        done[0] += len(line)
        line = line.rstrip(b"\r\n") if line.endswith(b"\n") else line
        column, tab, count = line.rpartition(b"\t")
        if not tab or not column or not count.isdigit() or len(count) > 19:
            if not line:
                continue
            raise CorpusError(
                f"{path}, line {number}: expected piece<TAB>count (a count from 1 to 2**63 - 1); "
                "counts files come from bpe-explorer count"
            )
        n = int(count)
        if not 1 <= n <= MAX_COUNT:
            raise CorpusError(f"{path}, line {number}: count {n} is outside 1 to 2**63 - 1 (64-bit)")
        try:
            raw = unescape_piece(column)
            word = codecs.charmap_decode(raw, "strict", BYTE_DECODING_TABLE)[0] if byte_level else raw.decode("utf-8")
        except ValueError as exc:  # bad escape, or bytes that are not UTF-8 in character-level counts
            raise CorpusError(f"{path}, line {number}: {exc}") from None
        yield word, n


def _describe(header: CountsHeader) -> str:
    pattern = f" {header.pattern!r}" if header.pattern else ""
    specials = f", specials {list(header.specials)}" if header.specials else ", no specials"
    return f"pre-tokenizer {header.pre_tokenizer}{pattern}, {header.level}-level{specials}"


__all__ = [
    "FORMAT_VERSION",
    "HEADER_PREFIX",
    "MAX_COUNT",
    "CountsHeader",
    "escape_piece",
    "piece_bytes",
    "read_counts",
    "read_header",
    "unescape_piece",
    "write_counts",
]
