"""The units fertility is counted in, as character spans of a text: words, characters or syllables.

tokka-bench's rules (``src/tokka_bench/metrics.py``, ``_segment_units``), with spans so that the
continued-unit rate can be read off the real encoding instead of re-encoding each unit alone:

* ``word``: maximal runs of non-whitespace (``\\S+``, exactly the words of ``str.split()``);
* ``character``: every character that is neither whitespace nor unprintable (``str.isprintable``);
* ``syllable``: the text cut at each tsheg (``་``, U+0F0B), each piece stripped of surrounding
  whitespace, empty pieces dropped; a text of fewer than three such syllables counts its characters
  (other than tsheg) instead.

:func:`unit_spans` is the readable rule for one text; :func:`part_units` does the same for many
parts at once as arrays (the shipped 532 declarations in a few milliseconds each), and a test holds
the two equal on every shipped text.

>>> unit_spans("ab  cd", "word"), unit_spans("ก ข.", "character")
([(0, 2), (4, 6)], [(0, 1), (2, 3), (3, 4)])
>>> text = "བོད་ཀྱི་ སྐད་ཡིག།"
>>> [text[a:b] for a, b in unit_spans(text, "syllable")]
['བོད', 'ཀྱི', 'སྐད', 'ཡིག།']
>>> [s.tolist() for s in part_units(["ab cd", "ef"], "word")]
[[0, 3, 5], [2, 5, 7]]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .scripts import UnitKind

TSHEG = "\u0f0b"
MIN_SYLLABLES = 3
"""Fewer syllables than this and the text is counted in characters (tokka-bench's threshold)."""

WHITESPACE = frozenset(
    [*range(0x09, 0x0E), *range(0x1C, 0x21), 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
)
"""The code points ``str.isspace`` is true for (Python 3.11's Unicode; a test checks all of them)."""
_WHITESPACE = np.array(sorted(WHITESPACE), dtype=np.int64)


def unit_spans(text: str, kind: UnitKind) -> list[tuple[int, int]]:
    """The ``[start, end)`` character spans of ``text``'s units of ``kind``."""
    if kind == "word":
        return _words(text)
    if kind == "syllable":
        found = _syllables(text)
        if len(found) >= MIN_SYLLABLES:
            return found
        return [(a, b) for a, b in _characters(text) if text[a] != TSHEG]
    return _characters(text)


def part_units(parts: Sequence[str], kind: UnitKind) -> tuple[np.ndarray, np.ndarray]:
    """``(starts, ends)``: the units of each part, as character offsets in the parts laid end to
    end (no unit crosses from one part into the next)."""
    if kind == "syllable":
        spans: list[tuple[int, int]] = []
        offset = 0
        for part in parts:
            spans.extend((a + offset, b + offset) for a, b in unit_spans(part, kind))
            offset += len(part)
        array = np.array(spans or np.zeros((0, 2)), dtype=np.int64)
        return array[:, 0], array[:, 1]
    joined = "".join(parts)
    codes = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.int64)
    space = np.isin(codes, _WHITESPACE)
    if kind == "character":
        unique, inverse = np.unique(codes, return_inverse=True)
        printable = np.array([chr(c).isprintable() for c in unique.tolist()], dtype=bool)
        inside = printable[inverse] & ~space
        where = np.flatnonzero(inside)
        return where, where + 1
    inside = ~space
    first = np.zeros(len(codes), dtype=bool)
    offsets = np.cumsum([0, *map(len, parts)])[:-1]
    first[offsets[offsets < len(codes)]] = True
    before = np.concatenate(([False], inside[:-1])) & ~first
    after = np.concatenate((inside[1:], [False]))
    after[offsets[(offsets > 0) & (offsets <= len(codes))] - 1] = False
    return np.flatnonzero(inside & ~before), np.flatnonzero(inside & ~after) + 1


def _words(text: str) -> list[tuple[int, int]]:
    spans = []
    start = None
    for i, c in enumerate(text):
        if c.isspace():
            if start is not None:
                spans.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        spans.append((start, len(text)))
    return spans


def _characters(text: str) -> list[tuple[int, int]]:
    return [(i, i + 1) for i, c in enumerate(text) if not c.isspace() and c.isprintable()]


def _syllables(text: str) -> list[tuple[int, int]]:
    """``[seg.strip() for seg in text.split(TSHEG)]`` without the empty ones, as spans."""
    found = []
    start = 0
    for piece in text.split(TSHEG):
        stripped = piece.strip()
        if stripped:
            a = start + (len(piece) - len(piece.lstrip()))
            found.append((a, a + len(stripped)))
        start += len(piece) + 1
    return found


__all__ = ["MIN_SYLLABLES", "TSHEG", "WHITESPACE", "part_units", "unit_spans"]
