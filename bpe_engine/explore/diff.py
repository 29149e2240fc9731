"""Two tokenizers side by side: where their merge lists part, and which tokens each has alone.

The rule lab: train one corpus under two tie-break rules (or two settings) and see what the choice
changed -- the first merge at which the lists differ, how many ranks hold another merge, and the
tokens one vocabulary has that the other lacks. Tokens are compared by the bytes they stand for, so
a byte-level and a character-level model, or two files of different formats, compare fairly.

>>> d = diff_merges([("e", "s"), ("es", "t"), ("l", "o")], [("e", "s"), ("l", "o"), ("es", "t")])
>>> d.first_difference, d.ranks_differ, d.moved
(2, 2, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, cast

from ..errors import BpeEngineError
from ..pretokenizers import PreTokenizer
from ..types import ReplaysMerges, Tokenizer

SHOWN_TOKENS = 20
"""Tokens of each side a summary names (the counts say how many in all)."""


@dataclass(frozen=True, slots=True)
class MergeDiff:
    """``first_difference``: the number (from 1) of the first merge the lists disagree on, None when
    one is a prefix of the other; ``ranks_differ``: ranks below the shorter length holding other
    merges; ``moved``: merges both lists make, at other ranks."""

    first_difference: int | None
    ranks_differ: int
    moved: int
    length_a: int
    length_b: int

    @property
    def same(self) -> bool:
        return self.first_difference is None and self.length_a == self.length_b


@dataclass(frozen=True, slots=True)
class TokenizerDiff:
    """The merge lists' difference (None unless both have one) and the vocabularies', by bytes."""

    merges: MergeDiff | None
    shared: int
    only_a: tuple[bytes, ...]
    only_b: tuple[bytes, ...]
    count_only_a: int
    count_only_b: int


def diff_merges(a: Sequence[tuple[str, str]], b: Sequence[tuple[str, str]]) -> MergeDiff:
    """Where merge lists ``a`` and ``b`` part (pairs compared as the models spell them)."""
    shorter = min(len(a), len(b))
    first = next((i + 1 for i in range(shorter) if tuple(a[i]) != tuple(b[i])), None)
    differ = sum(1 for i in range(shorter) if tuple(a[i]) != tuple(b[i]))
    rank_b = {tuple(m): i for i, m in enumerate(b)}
    moved = sum(1 for i, m in enumerate(a) if tuple(m) in rank_b and rank_b[tuple(m)] != i)
    return MergeDiff(first, differ, moved, len(a), len(b))


def vocabulary_bytes(tokenizer: Tokenizer) -> set[bytes]:
    """Every id's bytes (special tokens left out: they are text, not learned tokens)."""
    specials = set(tokenizer.special_tokens.values())
    out: set[bytes] = set()
    for token_id in range(tokenizer.vocab_size + len(specials)):
        if token_id in specials:
            continue
        try:
            out.add(tokenizer.token_bytes(token_id))
        except (BpeEngineError, KeyError, IndexError, ValueError):  # ids past the end, or holes: not tokens
            continue
    return out


def diff_tokenizers(a: Tokenizer, b: Tokenizer) -> TokenizerDiff:
    """Compare two tokenizers: merge lists when both replay merges, vocabularies always."""
    merges = None
    if a.capabilities.replays_merges and b.capabilities.replays_merges:
        merges = diff_merges(cast(ReplaysMerges, a).merges, cast(ReplaysMerges, b).merges)
    va, vb = vocabulary_bytes(a), vocabulary_bytes(b)
    only_a, only_b = sorted(va - vb, key=lambda t: (len(t), t)), sorted(vb - va, key=lambda t: (len(t), t))
    return TokenizerDiff(merges, len(va & vb), tuple(only_a[:SHOWN_TOKENS]), tuple(only_b[:SHOWN_TOKENS]), len(only_a), len(only_b))


def changed_settings(a: Any, b: Any) -> list[str]:
    """The fields two trainer configs disagree on, ``name: a → b`` (a different model is one line)."""
    if type(a) is not type(b):
        return [f"model: {a.model} → {b.model}"]
    out = []
    for f in fields(a):
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if va != vb:
            out.append(f"{f.name}: {_shown(va)} → {_shown(vb)}")
    return out


def _shown(value: Any) -> str:
    return value.name if isinstance(value, PreTokenizer) else repr(value)


__all__ = ["MergeDiff", "TokenizerDiff", "changed_settings", "diff_merges", "diff_tokenizers", "vocabulary_bytes"]
