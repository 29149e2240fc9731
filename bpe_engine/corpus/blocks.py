"""Where a corpus may be cut into blocks that are counted apart, and how one block is read.

Counting a corpus of any size in bounded memory means never holding more than a few blocks of it.
A block must end where the pieces of its text, counted alone, are exactly the pieces the whole
text would give. Two kinds of *cut points* guarantee that:

- after every ``\\n`` when each line is a document (``lines=True``, as HF's ``train(files)``);
- before a plain space that follows a letter or digit, when the pre-tokenizer declares it
  (``PreTokenizer.safe_to_cut``): no piece of the GPT-2, cl100k, o200k or end-of-word patterns crosses
  that point -- a space may only *start* a non-whitespace piece, and whitespace pieces never hold
  a letter or digit -- unless a special token spans it, which is checked;
- at a line start -- after a ``\\n`` that follows a non-space and precedes a non-space -- when the
  tokenizer declares no token crosses one (``line_starts``, from ``Capabilities.line_safe``; the rule of
  :func:`cut_points`, on bytes): streamed encoding
  (:mod:`bpe_engine.streaming.encode_stream`) cuts BERT's WordPiece there, which has no space cut.

A stretch with no cut point is held whole while it is counted; ``CutRule.max_span`` bounds it
(:func:`.table_size.uncut_limit`): reading stops with one line as soon as a block would run that far
past its nominal end, before the stretch is read (a 2 GB file of NUL bytes was read whole and
used 16 GB in 9 s).

Block ``i`` of a file nominally covers bytes ``[i * size, (i + 1) * size)``; it really starts at
the first cut point at or after its nominal start and ends at the first cut point at or after
its nominal end. Any worker finds its own bounds from the file alone (as Hadoop and Dask find
line boundaries), so neither the local process pool nor a Dask cluster scans the file first, and
the blocks partition the file whatever the cut points are (a block with no cut point in it is
empty; its predecessor runs on).

>>> rule = CutRule(lines=True, spaces=False)
>>> rule.find(b"one\\ntwo\\nthree", 1)
4
>>> CutRule(lines=False, spaces=True).find(b"a, b c", 1)  # not after ',': after 'b'
4
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, NamedTuple

from ..pretokenizers import PreTokenizer
from .table_size import uncut_too_large

BLOCK_BYTES = 1 << 20
"""Nominal size of one block: small enough that a worker's lists of pieces stay small in memory,
large enough that merging the per-block counts costs little."""

_WINDOW = 1 << 16
"""Bytes read at a time while looking for a block's end."""



@dataclass(frozen=True)
class CutRule:
    """Which cut points a corpus has (picklable: workers get it with every job).

    ``specials``: the special tokens as UTF-8 bytes; no space or line-start cut falls inside one of them.
    ``max_span``: bytes a block may run past its nominal end (or a file counted whole may hold)
    without a cut point before reading stops (0: no bound).
    ``line_starts``: cut at line starts (see the module docstring); ``lines`` cuts after every ``\\n``.
    """

    lines: bool
    spaces: bool
    specials: tuple[bytes, ...] = ()
    max_span: int = 0
    line_starts: bool = False

    @classmethod
    def for_job(cls, pre_tokenizer: PreTokenizer, specials: tuple[str, ...], *, lines: bool, max_span: int = 0) -> CutRule:
        spaces = pre_tokenizer.safe_to_cut
        try:
            encoded = tuple(s.encode("utf-8", "surrogateescape") for s in specials if s)
        except UnicodeEncodeError:  # a special that no byte string spells: never cut at spaces
            encoded, spaces = (), False
        return cls(lines, spaces, encoded, max_span)

    @property
    def why_uncut(self) -> str:
        """Why a stretch has no cut point, in the user's words."""
        missing = [
            what
            for what, kind in (
                ("no line break", self.lines),
                ("no line start", self.line_starts and not self.lines),
                ("no space after a letter or digit", self.spaces),
            )
            if kind
        ]
        return ", ".join(missing) or "this pre-tokenizer cannot cut inside a document without --lines"

    @property
    def ways_to_cut(self) -> str:
        """The options that give a corpus more cut points than this rule has."""
        ways = [] if self.lines else ["--lines for text with line breaks"]
        if not self.spaces:
            ways.append("a pre-tokenizer that cuts (gpt2, cl100k, o200k, end-of-word)")
        return ", ".join(ways)

    def check_span(self, name: str, offset: int, span: int, *, exact: bool = False) -> None:
        """Stop, naming ``name``, if a stretch of ``span`` bytes from ``offset`` is past ``max_span``."""
        if self.max_span and span > self.max_span:
            raise uncut_too_large(name, offset, span, self.max_span, why=self.why_uncut, ways=self.ways_to_cut, exact=exact)

    @property
    def can_cut(self) -> bool:
        return self.lines or self.spaces or self.line_starts

    @property
    def lookaround(self) -> int:
        """Bytes needed on each side of a candidate to decide it (a character, a special token)."""
        return max(4, max(map(len, self.specials), default=0))

    def find(self, data: bytes | bytearray, start: int, end: int | None = None) -> int:
        """The first cut point ``c`` with ``start <= c <= end`` (``1 <= c``), or -1.

        ``c`` cuts between ``data[c - 1]`` and ``data[c]``. ``end`` defaults to ``len(data)``; a
        caller holding only part of the file passes ``len(data) - lookaround`` so every candidate
        can be decided on the bytes at hand.
        """
        end = len(data) if end is None else min(end, len(data))
        start = max(start, 1)
        if end < start:  # a caller short of lookaround bytes (a special longer than what was read): nothing to decide yet
            return -1
        best = -1
        if self.lines:
            newline = data.find(b"\n", start - 1, end)
            if newline != -1:
                best = newline + 1
        elif self.line_starts:
            best = self._line_start(data, start, end)
        if self.spaces:
            stop = end if best == -1 else best
            p = data.find(b" ", start, stop)
            while p != -1:
                if _letter_or_digit_before(data, p) and not self._inside_special(data, p):
                    return p
                p = data.find(b" ", p + 1, stop)
        return best

    def _line_start(self, data: bytes | bytearray, start: int, end: int) -> int:
        """The first line start ``c`` with ``start <= c <= end`` and ``c < len(data)``, or -1."""
        newline = data.find(b"\n", max(start - 1, 1), end)
        while newline != -1:
            c = newline + 1
            before, after = _char_before(data, newline), _char_at(data, c)
            if before and after and not before.isspace() and not after.isspace() and not self._inside_special(data, c):
                return c
            newline = data.find(b"\n", c, end)
        return -1

    def _inside_special(self, data: bytes | bytearray, c: int) -> bool:
        for special in self.specials:
            n = len(special)
            if n > 1 and data.find(special, max(c - n + 1, 0), c + n - 1) != -1:
                return True
        return False


def cut_points(text: str) -> list[int]:
    """The line starts of a text as characters: before character ``i`` when ``text[i - 1]`` is a
    newline, ``text[i - 2]`` is not whitespace and ``text[i]`` is not whitespace (the first point is
    0; the text's end is implied). The rule :class:`CutRule` applies to bytes (``line_starts``);
    Compare's line cache (:mod:`bpe_engine.compare.segments`) and the metrics' slices
    (:mod:`bpe_engine.metrics.encoded`) cut a ``str`` with it.

    >>> cut_points("ab\\ncd\\n\\nef\\n gh\\nij")
    [0, 3, 14]
    """
    points = [0]
    start = text.find("\n")
    while start != -1:
        i = start + 1
        if 2 <= i < len(text) and not text[i - 2].isspace() and not text[i].isspace():
            points.append(i)
        start = text.find("\n", i)
    return points


def _letter_or_digit_before(data: bytes | bytearray, c: int) -> bool:
    """Whether the character ending at byte ``c`` is a letter or digit (``str.isalnum``)."""
    last = data[c - 1]
    if last < 0x80:
        return data[c - 1 : c].isalnum()
    return _char_before(data, c).isalnum()


def _char_before(data: bytes | bytearray, c: int) -> str:
    """The character ending at byte ``c`` ("" if none or not valid UTF-8: no cut there).

    UTF-8 resynchronises at every lead byte, so decoding from the nearest lead byte gives the
    character a whole-text decode gives there.
    """
    j = c - 1
    while j > 0 and j > c - 4 and 0x80 <= data[j] < 0xC0:
        j -= 1
    try:
        return data[j:c].decode("utf-8") if c > 0 else ""
    except UnicodeDecodeError:
        return ""


def _char_at(data: bytes | bytearray, c: int) -> str:
    """The character starting at byte ``c`` ("" if none, cut short or not valid UTF-8)."""
    if c >= len(data):
        return ""
    lead = data[c]
    width = 1 if lead < 0x80 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
    try:
        return data[c : c + width].decode("utf-8")
    except UnicodeDecodeError:
        return ""


class FileBlock(NamedTuple):
    """Block ``[start, stop)`` (nominal) of the file at ``path``; ``name`` is shown in messages."""

    name: str
    path: str
    start: int
    stop: int
    size: int


class DataBlock(NamedTuple):
    """Bytes already read (standard input): ``offset`` in the source, ``line`` its first line."""

    name: str
    data: bytes
    offset: int
    line: int
    at_end: bool


def file_blocks(name: str, path: str, size: int, rule: CutRule, block_bytes: int = BLOCK_BYTES) -> Iterator[FileBlock]:
    """The nominal blocks of one file: one block when the rule has no cut points at all."""
    if size == 0 or not rule.can_cut:
        rule.check_span(name, 0, size, exact=True)
        yield FileBlock(name, path, 0, size, size)
        return
    for start in range(0, size, block_bytes):
        yield FileBlock(name, path, start, min(start + block_bytes, size), size)


def read_file_block(block: FileBlock, rule: CutRule, handle: IO[bytes]) -> tuple[int, bytes]:
    """The block's bytes between its real bounds, and the offset where they start."""
    begin = 0 if block.start == 0 else _first_cut(handle, block.size, block.start, rule, block.name)
    end = block.size if block.stop >= block.size else _first_cut(handle, block.size, block.stop, rule, block.name)
    if begin >= end:
        return begin, b""
    handle.seek(begin)
    return begin, handle.read(end - begin)


def _first_cut(handle: IO[bytes], size: int, pos: int, rule: CutRule, name: str) -> int:
    """The first cut point at or after ``pos`` in the file (``size`` if none); stops when the
    search runs past ``rule.max_span`` (the block would hold that stretch whole)."""
    around = rule.lookaround
    base = max(pos - around, 0)
    handle.seek(base)
    data = handle.read(pos - base + _WINDOW)
    searched = pos - base
    while True:
        at_eof = base + len(data) >= size
        limit = len(data) if at_eof else len(data) - around
        cut = rule.find(data, searched, limit)
        if cut != -1:
            return base + cut
        if at_eof:
            return size
        searched = max(limit, searched)
        rule.check_span(name, pos, base + len(data) - pos)
        want = max(_WINDOW, len(data))  # doubling: a long line costs O(n), not O(n^2)
        if rule.max_span:  # ... and no further than just past max_span
            want = min(want, max(_WINDOW, rule.max_span + 1 - (base + len(data) - pos)))
        more = handle.read(want)
        if not more:
            return size
        data += more


def stream_blocks(name: str, handle: IO[bytes], rule: CutRule, block_bytes: int = BLOCK_BYTES) -> Iterator[DataBlock]:
    """Cut a stream (standard input, a pipe, a device) into blocks at cut points, reading
    ``block_bytes`` at a time; a stretch without a cut point stops at ``rule.max_span``."""
    pending = bytearray()  # appended to in place: a long stretch costs O(n), not O(n^2)
    searched = block_bytes  # where the search for the current block's end goes on
    offset, line = 0, 1
    at_eof = False
    while not at_eof:
        chunk = handle.read(block_bytes)
        at_eof = not chunk
        pending += chunk
        while pending and (at_eof or len(pending) > searched):
            limit = len(pending) if at_eof else len(pending) - rule.lookaround
            cut = rule.find(pending, searched, limit)
            if cut == -1 and not at_eof:
                searched = max(searched, limit)
                rule.check_span(name, offset + block_bytes, len(pending) - block_bytes)
                break  # no cut point yet: read on
            if cut == -1:
                cut = len(pending)
            data = bytes(pending[:cut])
            del pending[:cut]
            searched = block_bytes
            yield DataBlock(name, data, offset, line, at_eof and not pending)
            offset += len(data)
            line += data.count(b"\n")
    if offset == 0:
        yield DataBlock(name, b"", 0, 1, True)


def stdin_bytes() -> IO[bytes]:
    """Standard input as bytes, or a clear failure when it is closed."""
    stream = sys.stdin
    if stream is None or stream.closed:
        raise OSError("standard input is closed")
    return stream.buffer


def cut_bytes(data: bytes, rule: CutRule, size: int) -> Iterator[bytes]:
    """``data`` in parts of about ``size`` bytes, each ending at a cut point (lazily)."""
    start = 0
    while len(data) - start > size:
        cut = rule.find(data, start + size)
        if cut == -1:
            break
        yield data[start:cut]
        start = cut
    yield data[start:]
