"""A long text held in blocks: what the app keeps of a big corpus.

CPython stores a ``str`` at the width of its widest character. Two emoji in 50 MB of English
made the whole corpus 4 bytes per character: 200 MB for a 50 MB file, the biggest single part of
the app's memory after training. :class:`BlockText` keeps the text as
``str`` blocks of :data:`BLOCK_CHARS` characters, each as narrow as its own characters allow
(slicing a ``str`` gives the narrowest one), so only the blocks that hold the emoji are wide.

It answers what the app asks of its corpus -- length, a slice, ``find``/``rfind`` of a line
break, equality -- and :func:`text_blocks` gives any text (a ``str`` too) as blocks, so the cut,
the facts and the training read either kind the same way. ``str(text)`` spells it out whole
(a copy, at the width of its widest character): only for code that needs one ``str``.

Pickled (the training child gets its corpus so), each block goes as its UTF-8 bytes made by
``str.encode``: pickling a ``str`` itself keeps a UTF-8 copy inside the parent's object for the
rest of its life (``PyUnicode_AsUTF8AndSize``), a quarter of the corpus again.

>>> t = BlockText.of("one\\ntwo 😀\\nthree", block_chars=4)
>>> len(t), t[4:9], t.rfind("\\n", 0, 12), t.find("\\n", 5), t == "one\\ntwo 😀\\nthree"
(15, 'two 😀', 9, 9, True)
>>> [len(b) for b in t.blocks], str(t)[-5:]
([4, 4, 4, 3], 'three')
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Union

BLOCK_CHARS = 1 << 16
"""Characters per block: a wide character widens 256 KB at most; a window of the corpus view
(a few thousand characters) spans one or two blocks."""

DECODE_BYTES = 1 << 20
"""Bytes decoded at a time when a text is read from UTF-8 (the only transient of reading)."""


class BlockText:
    """An immutable text as ``str`` blocks of ``block_chars`` characters (the last one shorter)."""

    __slots__ = ("blocks", "block_chars", "_length", "_hash")

    def __init__(self, blocks: Iterable[str], *, block_chars: int = BLOCK_CHARS) -> None:
        """``blocks`` may be of any sizes: they are cut again to ``block_chars`` each."""
        self.block_chars = block_chars
        self.blocks: tuple[str, ...] = tuple(_reblock(blocks, block_chars))
        self._length = sum(map(len, self.blocks))
        self._hash: int | None = None

    @classmethod
    def of(cls, text: str | BlockText, *, block_chars: int = BLOCK_CHARS) -> BlockText:
        """``text`` in blocks (a BlockText of the same block size is returned as it is)."""
        if isinstance(text, BlockText) and text.block_chars == block_chars:
            return text
        return cls(text_blocks(text), block_chars=block_chars)

    @classmethod
    def decode(cls, data: bytes, *, errors: str = "strict", block_chars: int = BLOCK_CHARS) -> BlockText:
        """UTF-8 ``data`` decoded a part at a time: never the whole text as one wide ``str``.

        A :class:`UnicodeDecodeError` has the offset a whole ``data.decode()`` reports
        (``exc.start`` counts from the start of ``data``).
        """
        return cls(_decoded_parts(data, errors), block_chars=block_chars)

    @classmethod
    def joined(cls, separator: str, parts: Iterable[str | BlockText]) -> BlockText:
        """``separator.join(parts)`` without spelling any part out whole (files opened together)."""
        pieces: list[Iterable[str]] = []
        for i, part in enumerate(parts):
            if i:
                pieces.append((separator,))
            pieces.append(text_blocks(part))
        return cls(chain.from_iterable(pieces))

    # -- what a str answers ------------------------------------------------------------------------
    def __len__(self) -> int:
        return self._length

    def __bool__(self) -> bool:
        return self._length > 0

    def __str__(self) -> str:
        return "".join(self.blocks)

    def __repr__(self) -> str:
        return f"BlockText({self._length:,} characters in {len(self.blocks)} blocks)"

    def __getitem__(self, index: int | slice) -> str:
        if isinstance(index, int):
            if index < 0:
                index += self._length
            if not 0 <= index < self._length:
                raise IndexError("BlockText index out of range")
            return self.blocks[index // self.block_chars][index % self.block_chars]
        start, stop, step = index.indices(self._length)
        if step != 1:
            return self[start:stop][::step] if start < stop else ""
        if start >= stop:
            return ""
        size = self.block_chars
        first, last = start // size, (stop - 1) // size
        if first == last:
            return self.blocks[first][start - first * size : stop - first * size]
        parts = [self.blocks[first][start - first * size :], *self.blocks[first + 1 : last], self.blocks[last][: stop - last * size]]
        return "".join(parts)

    def find(self, sub: str, start: int = 0, end: int | None = None) -> int:
        """``str.find``, one block (and the seam to the next) at a time."""
        start, end, _ = slice(start, end).indices(self._length)
        if len(sub) == 0:
            return start if start <= end else -1
        size, span = self.block_chars, len(sub) - 1
        pos = start
        while pos < end:
            stop = min((pos // size + 1) * size + span, end)
            found = self[pos:stop].find(sub)
            if found != -1:
                return pos + found
            pos = stop - span if stop < end else end
        return -1

    def rfind(self, sub: str, start: int = 0, end: int | None = None) -> int:
        """``str.rfind``, one block (and the seam to the previous) at a time, from the end."""
        start, end, _ = slice(start, end).indices(self._length)
        if len(sub) == 0:
            return end if start <= end else -1
        size, span = self.block_chars, len(sub) - 1
        stop = end
        while stop > start:
            pos = max(((stop - 1) // size) * size - span, start)
            found = self[pos:stop].rfind(sub)
            if found != -1:
                return pos + found
            stop = pos + span if pos > start else start
        return -1

    def startswith(self, prefix: str) -> bool:
        return self[: len(prefix)] == prefix

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if isinstance(other, BlockText):
            if len(other) != self._length:
                return False
            if other.block_chars == self.block_chars:
                return other.blocks == self.blocks
            other = str(other)
        if not isinstance(other, str) or len(other) != self._length:
            return False
        size = self.block_chars
        return all(block == other[i * size : (i + 1) * size] for i, block in enumerate(self.blocks))

    def __hash__(self) -> int:
        """The hash of the same text as a ``str`` (equal values hash equal); spelled out once."""
        if self._hash is None:
            self._hash = hash(str(self))
        return self._hash

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        encoded = tuple(b.encode("utf-8", "surrogatepass") for b in self.blocks)
        return (_from_encoded, (encoded, self.block_chars))


Text = Union[str, BlockText]
"""A corpus text: a ``str``, or a :class:`BlockText` for a big corpus."""


def text_blocks(text: Text) -> tuple[str, ...] | Iterator[str]:
    """``text`` as ``str`` parts whose concatenation is the text (a ``str`` is its own one part)."""
    if isinstance(text, BlockText):
        return text.blocks
    return (text,) if text else ()


def whole(text: Text) -> str:
    """``text`` as one ``str`` (a ``str`` is returned as it is; a BlockText is spelled out)."""
    return text if isinstance(text, str) else str(text)


def blank(text: Text) -> bool:
    """Whether ``text`` is empty or only whitespace (``not text.strip()``), a block at a time."""
    return all(part.isspace() for part in text_blocks(text))


def utf8_length(text: Text) -> int:
    """How many bytes ``text`` takes in UTF-8 (lone surrogates as the byte they stand for)."""
    return sum(len(part.encode("utf-8", "surrogateescape")) for part in _bounded(text))


def _bounded(text: Text) -> Iterator[str]:
    """``text`` in parts of at most :data:`BLOCK_CHARS` (a long ``str`` is not encoded whole)."""
    for part in text_blocks(text):
        for i in range(0, len(part), BLOCK_CHARS):
            yield part[i : i + BLOCK_CHARS]


def distinct_symbols(text: Text) -> tuple[int, int]:
    """How many distinct characters and distinct UTF-8 bytes ``text`` holds, a block at a time."""
    chars: set[str] = set()
    raw: set[int] = set()
    for part in _bounded(text):
        chars.update(part)
        raw.update(part.encode("utf-8", "surrogateescape"))
    return len(chars), len(raw)


def _from_encoded(encoded: tuple[bytes, ...], block_chars: int) -> BlockText:
    return BlockText((b.decode("utf-8", "surrogatepass") for b in encoded), block_chars=block_chars)


def _reblock(parts: Iterable[str], size: int) -> Iterator[str]:
    """The text of ``parts`` again, in parts of exactly ``size`` characters (the last shorter)."""
    carry: list[str] = []
    held = 0
    for part in parts:
        start = 0
        if held:
            take = min(size - held, len(part))
            carry.append(part[:take])
            held += take
            start = take
            if held < size:
                continue
            yield "".join(carry)
            carry, held = [], 0
        while len(part) - start >= size:
            yield part[start : start + size] if start or len(part) != size else part
            start += size
        if start < len(part):
            carry.append(part[start:])
            held = len(part) - start
    if held:
        yield "".join(carry)


def _decoded_parts(data: bytes, errors: str) -> Iterator[str]:
    """``data`` decoded from UTF-8 in parts of :data:`DECODE_BYTES` by an incremental decoder (a
    character split between two parts waits for the rest); an error names its offset in ``data``."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors)
    for start in range(0, len(data), DECODE_BYTES):
        pending = len(decoder.getstate()[0])  # bytes of a character begun in the previous part
        stop = start + DECODE_BYTES
        try:
            yield decoder.decode(data[start:stop], final=stop >= len(data))
        except UnicodeDecodeError as exc:
            at = start - pending
            raise UnicodeDecodeError(exc.encoding, data, at + exc.start, at + exc.end, exc.reason) from None
