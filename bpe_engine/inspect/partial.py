"""Which tokens hold only part of a character, and which tokens together make it whole.

Byte-level BPE may split one character's UTF-8 bytes across tokens: in gpt2, ``한`` (``ED 95 9C``)
is the two tokens ``ED 95 | 9C``. Neither token "is" 한; only the group is. This module finds such
groups so the UI can bracket them, instead of showing the whole character under one token.

Two units are offered: ``"codepoint"`` (a Python character: a split *inside* its UTF-8 bytes) and
``"grapheme"`` (what a reader sees as one character: a ZWJ family emoji, a flag, ``e`` + combining
accent, which tokens may split even at code-point boundaries).

>>> from bpe_engine.types import Encoding
>>> enc = Encoding("한", (1, 2), ("íķ", "ľ"), ((0, 2), (2, 3)), (False, False))
>>> partial_groups(enc)
[PartialGroup(tokens=(0, 2), chars=(0, 1), byte_span=(0, 3), unit='codepoint')]
>>> partial_flags(enc)
(True, True)
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..core.text_index import TextIndex, index_of
from ..types import Encoding

Unit = Literal["codepoint", "grapheme"]


@dataclass(frozen=True, slots=True)
class PartialGroup:
    """Tokens ``[tokens[0], tokens[1])`` that only together hold whole characters ``chars``."""

    tokens: tuple[int, int]
    chars: tuple[int, int]
    byte_span: tuple[int, int]
    unit: Unit


def partial_flags(encoding: Encoding, index: TextIndex | None = None, *, unit: Unit = "codepoint") -> tuple[bool, ...]:
    """For each token: does it start or end strictly inside a character (``unit``)?

    A token with an empty span holds nothing, so it is never partial.
    """
    index = index or index_of(encoding.text)
    if unit == "codepoint":
        if index.n_bytes == index.n_chars:
            return (False,) * len(encoding.byte_spans)  # ASCII: every byte is a whole character
        # One set lookup per edge: this runs for every token of every comparison row.
        bounds = index.boundary_bytes
        return tuple(e > s and (s not in bounds or e not in bounds) for s, e in encoding.byte_spans)
    is_boundary = _boundary_test(index, unit)
    return tuple(e > s and not (is_boundary(s) and is_boundary(e)) for s, e in encoding.byte_spans)


def partial_share(encoding: Encoding, index: TextIndex | None = None) -> float | None:
    """Share of tokens that hold part of a code point (``None`` for no tokens)."""
    if not encoding.ids:
        return None
    flags = partial_flags(encoding, index)
    return sum(flags) / len(flags)


def partial_groups(encoding: Encoding, index: TextIndex | None = None, *, unit: Unit = "codepoint") -> list[PartialGroup]:
    """The groups of tokens that share a split character, in text order.

    Tokens are joined when they hold parts of the same character; joining is transitive, so
    ``[한 + first byte of 국] [rest of 국]`` after ``[first bytes of 한]`` makes one group of three.
    """
    index = index or index_of(encoding.text)
    is_boundary = _boundary_test(index, unit)
    unit_of = _unit_locator(index, unit)
    parent = list(range(len(encoding.byte_spans)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[int, int] = {}  # split unit -> first token seen holding part of it
    split_tokens: set[int] = set()
    for t, (s, e) in enumerate(encoding.byte_spans):
        if e <= s:
            continue
        units = set()
        if not is_boundary(s):
            units.add(unit_of(s))
        if not is_boundary(e):
            units.add(unit_of(e - 1))
        for u in units:
            split_tokens.add(t)
            if u in owner:
                parent[find(t)] = find(owner[u])
            else:
                owner[u] = t
    members: dict[int, list[int]] = {}
    for t in sorted(split_tokens):
        members.setdefault(find(t), []).append(t)
    groups = []
    for toks in members.values():
        b0 = min(encoding.byte_spans[t][0] for t in toks)
        b1 = max(encoding.byte_spans[t][1] for t in toks)
        c0, c1 = index.char_span(b0, b1)
        groups.append(PartialGroup((toks[0], toks[-1] + 1), (c0, c1), (b0, b1), unit))
    groups.sort(key=lambda g: g.tokens)
    return groups


def group_of_token(groups: list[PartialGroup], n_tokens: int) -> tuple[int | None, ...]:
    """For each token index, the index of its group in ``groups`` (``None`` when whole)."""
    out: list[int | None] = [None] * n_tokens
    for g, group in enumerate(groups):
        for t in range(*group.tokens):
            out[t] = g
    return tuple(out)


# -- private -------------------------------------------------------------------------------------
def _boundary_test(index: TextIndex, unit: Unit) -> Callable[[int], bool]:
    if unit == "codepoint":
        return index.is_char_boundary
    bounds = index.grapheme_byte_boundaries
    n = index.n_bytes
    return lambda b: b <= 0 or b >= n or b in bounds


def _unit_locator(index: TextIndex, unit: Unit) -> Callable[[int], int]:
    if unit == "codepoint":
        return index.char_at_byte
    starts = [index.char_byte_starts[c] for c in index.grapheme_char_starts]
    return lambda b: bisect_right(starts, b) - 1
