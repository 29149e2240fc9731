"""Token boundaries of several encodings on one character axis.

Each row's tokens are located by byte spans; the comparison draws characters. A boundary that
falls between two characters is a *character offset*; one that falls inside a character's bytes
(byte-level BPE splitting 한 as ``ED 95 | 9C``) marks that character as *split* in that row.
Offsets where some rows cut and others do not are the disagreements the view highlights.

>>> from bpe_engine.types import Encoding
>>> a = align_row(Encoding("ab c", (0, 1), ("ab", "c"), ((0, 2), (3, 4)), (False, False)))
>>> sorted(a.boundaries), a.token_of_char
([0, 2, 3, 4], (0, 0, -1, 1))
>>> b = align_row(Encoding("ab c", (0,), ("ab c",), ((0, 4),), (False,)))
>>> disagreements([a, b])
(2, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..inspect.text_index import TextIndex
from ..types import Encoding


@dataclass(frozen=True, slots=True)
class RowAlignment:
    """One row on the character axis.

    ``boundaries``: character offsets where a token starts or ends.
    ``split_chars``: characters with a token boundary strictly inside their bytes.
    ``token_of_char[i]``: the first token covering character ``i`` (``-1``: no token covers it,
    e.g. the whitespace that word-based rows drop).
    """

    boundaries: frozenset[int]
    split_chars: frozenset[int]
    token_of_char: tuple[int, ...]


def align_row(encoding: Encoding, index: TextIndex | None = None) -> RowAlignment:
    """Place one encoding's token boundaries on the character axis of its text."""
    index = index or TextIndex(encoding.text)
    n = index.n_chars
    owner = [-1] * n
    bounds: set[int] = set()
    split: set[int] = set()
    ascii_text = index.n_bytes == n
    b2c = index.byte_to_char
    starts = index.char_byte_starts
    for t, (s, e) in enumerate(encoding.byte_spans):
        s = min(max(s, 0), index.n_bytes)
        e = min(max(e, s), index.n_bytes)
        cs = b2c[s]
        ce = b2c[e - 1] + 1 if e > s else cs
        for edge, c in ((s, cs), (e, b2c[e])):
            if ascii_text or starts[c] == edge:
                bounds.add(c)
            else:
                split.add(c)
        for c in range(cs, ce):
            if owner[c] < 0:
                owner[c] = t
    return RowAlignment(frozenset(bounds), frozenset(split), tuple(owner))


def disagreements(rows: Sequence[RowAlignment]) -> tuple[int, ...]:
    """Character offsets where some rows have a boundary and others do not, in order."""
    if len(rows) < 2:
        return ()
    union = frozenset().union(*(r.boundaries for r in rows))
    common = frozenset.intersection(*(r.boundaries for r in rows))
    return tuple(sorted(union - common))


def agreement(rows: Sequence[RowAlignment], offset: int) -> int:
    """How many rows cut at character ``offset``."""
    return sum(offset in r.boundaries for r in rows)
