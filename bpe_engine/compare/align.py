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
from functools import cached_property
from itertools import chain, count, repeat
from operator import itemgetter, le, lt

from ..core.text_index import TextIndex, index_of
from ..types import Encoding


@dataclass(frozen=True)
class RowAlignment:
    """One row on the character axis.

    ``boundaries``: character offsets where a token starts or ends.
    ``split_chars``: characters with a token boundary strictly inside their bytes.
    ``token_starts`` / ``token_ends``: each token's character span (touched characters).
    """

    boundaries: frozenset[int]
    split_chars: frozenset[int]
    token_starts: tuple[int, ...]
    token_ends: tuple[int, ...]
    n_chars: int

    @cached_property
    def token_of_char(self) -> tuple[int, ...]:
        """``token_of_char[i]``: the first token covering character ``i`` (``-1``: no token covers
        it, e.g. the whitespace word-based rows drop). Built on first use: only drawing needs it."""
        return _owners(list(self.token_starts), list(self.token_ends), self.n_chars)


def align_row(encoding: Encoding, index: TextIndex | None = None) -> RowAlignment:
    """Place one encoding's token boundaries on the character axis of its text."""
    index = index or index_of(encoding.text)
    n_bytes = index.n_bytes
    spans = encoding.byte_spans
    if spans and (min(map(itemgetter(0), spans)) < 0 or max(map(itemgetter(1), spans)) > n_bytes):
        spans = tuple((min(max(s, 0), n_bytes), min(max(e, 0), n_bytes)) for s, e in spans)
    if index.n_chars == n_bytes:  # ASCII: bytes are characters
        starts_c = list(map(itemgetter(0), spans))
        ends_c = [e if e > s else s for s, e in spans]  # typing runs this per row per key: no max() calls
        bounds = set(starts_c)
        bounds.update(ends_c)
        split: set[int] = set()
    else:
        # Each lookup list is one itemgetter call over the offset tables: typing runs this per row
        # per key, and one Python expression per token and per edge was ~3 ms a row for a 5 KB
        # text holding a single emoji (the ASCII path above was ~0.3 ms).
        b2c = index.byte_to_char
        starts_b = list(map(itemgetter(0), spans))
        ends_b = list(map(itemgetter(1), spans))
        if len(spans) > 1 and all(map(lt, starts_b, ends_b)):
            starts_c = itemgetter(*starts_b)(b2c)
            ends_c = itemgetter(*ends_b)(index.chars_before_byte)  # through the character holding byte e - 1
        else:
            starts_c = [b2c[s] for s in starts_b]
            ends_c = [b2c[e - 1] + 1 if e > s else b2c[s] for s, e in spans]
        edges = set(starts_b)
        edges.update(ends_b)
        between = index.boundary_bytes  # an edge there is a boundary; anywhere else it splits a character
        bounds = _chars_at(b2c, edges.intersection(between))
        split = _chars_at(b2c, edges.difference(between))
    return RowAlignment(frozenset(bounds), frozenset(split), tuple(starts_c), tuple(ends_c), index.n_chars)


def _chars_at(byte_to_char: Sequence[int], offsets: set[int]) -> set[int]:
    """The characters holding ``offsets`` (one C call for two or more)."""
    if len(offsets) > 1:
        return set(itemgetter(*offsets)(byte_to_char))
    return {byte_to_char[b] for b in offsets}


def _owners(starts: list[int], ends: list[int], n: int) -> tuple[int, ...]:
    """``owner[c]``: first token covering character ``c``, ``-1`` if none."""
    if all(map(le, starts, starts[1:])):
        # Tokens in text order (every tokenizer we know): each token owns the characters it
        # reaches beyond the previous ones; built as runs, not one assignment per character.
        values: list[int] = []
        counts: list[int] = []
        pos = 0
        for t, cs, ce in zip(count(), starts, ends):
            if cs > pos:
                values.append(-1)
                counts.append(cs - pos)
                pos = cs
            if ce > pos:
                values.append(t)
                counts.append(ce - pos)
                pos = ce
        if n > pos:
            values.append(-1)
            counts.append(n - pos)
        return tuple(chain.from_iterable(map(repeat, values, counts)))
    owner = [-1] * n
    # Reverse order, so where spans overlap the first token covering a character wins.
    for t in range(len(starts) - 1, -1, -1):
        cs, ce = starts[t], ends[t]
        if ce > cs:
            owner[cs:ce] = [t] * (ce - cs)
    return tuple(owner)


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
