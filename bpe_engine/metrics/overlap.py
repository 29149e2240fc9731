"""How much two vocabularies share: as sets of byte strings, and weighted by what a corpus uses.

Tokens are compared by the bytes they stand for (``Ġthe`` in GPT-2 and ``▁the``'s text in a
SentencePiece model are different bytes: `` the`` and ``the`` -- the marker is part of the token),
special tokens left out:

* ``jaccard`` = |A ∩ B| / |A ∪ B| over the two vocabularies' byte strings;
* with a corpus, each tokenizer encodes it and ``weighted_jaccard`` = Σ min(fA, fB) / Σ max(fA, fB)
  over byte strings, f the number of times each tokenizer used a token of those bytes (the
  Ružička similarity: 1 when both cut the corpus into the same tokens);
* ``a_in_b`` -- the share of A's token occurrences on the corpus whose bytes B also has as one
  token (and ``b_in_a``): how much of what A actually spends B could spend too.

>>> from bpe_engine.catalog.openai import load_reference
>>> o = vocabulary_overlap(load_reference("gpt2"), load_reference("p50k_base"))
>>> o.a_size, o.b_size, o.shared, round(o.jaccard, 5)
(50256, 50280, 50256, 0.99952)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..types import UNKNOWN_ID, Tokenizer
from .encoded import id_slices
from .vocabulary import vocabulary_bytes


@dataclass(frozen=True)
class Overlap:
    a: str
    b: str
    a_size: int
    b_size: int
    shared: int
    weighted_jaccard: float | None = None
    a_in_b: float | None = None
    b_in_a: float | None = None
    a_only_frequent: tuple[tuple[bytes, int], ...] = ()
    b_only_frequent: tuple[tuple[bytes, int], ...] = ()

    @property
    def jaccard(self) -> float:
        union = self.a_size + self.b_size - self.shared
        return self.shared / union if union else 0.0


def vocabulary_overlap(a: Tokenizer, b: Tokenizer, corpus: Sequence[str] = (), *, top: int = 10) -> Overlap:
    """A and B's shared tokens; with ``corpus`` texts, weighted by their use (see the module
    docstring). ``*_only_frequent``: the ``top`` tokens one used most that the other lacks."""
    a_bytes, b_bytes = vocabulary_bytes(a), vocabulary_bytes(b)
    shared = len(a_bytes.keys() & b_bytes.keys())
    if not corpus:
        return Overlap(a.name, b.name, len(a_bytes), len(b_bytes), shared)
    fa, fb = _byte_frequencies(a, corpus), _byte_frequencies(b, corpus)
    keys = fa.keys() | fb.keys()
    low = sum(min(fa[k], fb[k]) for k in keys)
    high = sum(max(fa[k], fb[k]) for k in keys)
    a_total, b_total = sum(fa.values()), sum(fb.values())
    a_in_b = sum(n for k, n in fa.items() if k in b_bytes) / a_total if a_total else None
    b_in_a = sum(n for k, n in fb.items() if k in a_bytes) / b_total if b_total else None
    a_only = tuple((k, n) for k, n in fa.most_common() if k not in b_bytes)[:top]
    b_only = tuple((k, n) for k, n in fb.most_common() if k not in a_bytes)[:top]
    return Overlap(a.name, b.name, len(a_bytes), len(b_bytes), shared, low / high if high else None, a_in_b, b_in_a, a_only, b_only)


def _byte_frequencies(tokenizer: Tokenizer, corpus: Sequence[str]) -> Counter[bytes]:
    """How often the tokenizer used a token of each byte string on ``corpus`` (specials and
    unknown pieces left out)."""
    ids: Counter[int] = Counter()
    for text in corpus:
        for _, chunk in id_slices(tokenizer, text):
            ids.update(chunk)
    specials = set(tokenizer.special_tokens.values()) | {UNKNOWN_ID}
    out: Counter[bytes] = Counter()
    for i, n in ids.items():
        if i not in specials:
            out[tokenizer.token_bytes(i)] += n
    return out


__all__ = ["Overlap", "vocabulary_overlap"]
