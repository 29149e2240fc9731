"""How evenly a tokenization spends its tokens: Shannon and Rényi efficiency, and a Zipf fit.

Zouhar et al. (2023, "Tokenization and the Noiseless Channel") judge a tokenization by the entropy
of its unigram distribution relative to the largest it could have: a tokenizer that spends most of
its tokens on a few types wastes the channel. The definitions are exactly those of the
``tokenization-scorer`` package (1.1.8, ``metrics.py``), which the tests hold these to:

* ``p(t)`` = count(t) / total over the token types *observed* in the text, ``V`` = how many types
  were observed (the package's default, not the vocabulary's size);
* Shannon efficiency = ``-Σ p log2 p / log2 V``;
* Rényi efficiency of order α = ``(1 / (1 - α)) · log2 Σ p^α / log2 V``; α = 1 is Shannon's (as
  the package means it to be: its own α = 1 branch re-reads a generator it has already consumed and
  returns 0). The paper recommends α = 2.5, our default (the package's command line defaults to 3).

Both are undefined (None here) when fewer than two types were observed: ``log2 1 = 0``.

The Zipf exponent is the slope, negated, of the least-squares line through (log rank, log count)
of every observed type, most frequent first: about 1 for natural text in words.

>>> counts = {"pick": 3, "@@ed": 2, "@@l": 1, "@@les": 1}
>>> round(shannon_efficiency(counts.values()), 6), round(renyi_efficiency(counts.values(), 2.5), 6)
(0.921185, 0.826506)
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

DEFAULT_ALPHA = 2.5


def _probabilities(counts: Iterable[int] | np.ndarray) -> np.ndarray:
    """Observed types' probabilities, most frequent first (the package's ``most_common`` order).

    Sorted by numpy, not ``sorted``: Compare's Stats rows measure every row on every key, and the
    Curve's efficiency per merge step reads tens of thousands of counts at each of its points.
    """
    freqs = np.asarray(counts, dtype=np.float64) if isinstance(counts, np.ndarray) else np.fromiter(counts, dtype=np.float64)
    freqs = np.sort(freqs[freqs > 0])[::-1]
    return freqs / freqs.sum() if freqs.size else freqs


def _entropy(probs: np.ndarray) -> float:
    """``-Σ p log2 p``: the one place Shannon's formula is written."""
    return float(-np.sum(probs * np.log2(probs)))


def _renyi_entropy(probs: np.ndarray, alpha: float) -> float:
    """``(1 / (1 - α)) · log2 Σ p^α``, Shannon's at α = 1 (see the module docstring)."""
    if alpha == 1.0:
        return _entropy(probs)
    return float(1 / (1 - alpha) * np.log2(np.sum(probs**alpha)))


def shannon_entropy(counts: Iterable[int] | np.ndarray) -> float:
    """``-Σ p log2 p`` in bits (0 for an empty text)."""
    probs = _probabilities(counts)
    return _entropy(probs) if probs.size else 0.0


def shannon_efficiency(counts: Iterable[int] | np.ndarray) -> float | None:
    """Shannon entropy over ``log2`` of the observed vocabulary (None below two types)."""
    return efficiencies(counts, DEFAULT_ALPHA)[0]


def renyi_efficiency(counts: Iterable[int] | np.ndarray, alpha: float = DEFAULT_ALPHA) -> float | None:
    """Rényi entropy of order ``alpha`` over ``log2`` of the observed vocabulary (None below two types)."""
    probs = _probabilities(counts)
    if probs.size < 2:
        return None
    return float(_renyi_entropy(probs, alpha) / np.log2(probs.size))


def efficiencies(counts: Iterable[int] | np.ndarray, alpha: float = DEFAULT_ALPHA) -> tuple[float | None, float | None]:
    """(Shannon efficiency, Rényi efficiency of order ``alpha``) from one sort of the counts: what
    ``metrics`` and Compare's Stats rows show side by side (Compare computes them on every key)."""
    probs = _probabilities(counts)
    if probs.size < 2:
        return None, None
    bits = np.log2(probs.size)
    return float(_entropy(probs) / bits), float(_renyi_entropy(probs, alpha) / bits)


def zipf_exponent(counts: Iterable[int]) -> float | None:
    """The negated least-squares slope of log count against log rank (None below two types).

    >>> round(zipf_exponent([round(1e6 / r) for r in range(1, 200)]), 3), round(zipf_exponent([round(1e6 / r**1.5) for r in range(1, 200)]), 3)
    (1.0, 1.5)
    """
    freqs = np.array(sorted((c for c in counts if c > 0), reverse=True), dtype=np.float64)
    if freqs.size < 2:
        return None
    ranks = np.log(np.arange(1, freqs.size + 1, dtype=np.float64))
    slope = np.polyfit(ranks, np.log(freqs), 1)[0]
    return float(-slope) if math.isfinite(slope) else None


__all__ = ["DEFAULT_ALPHA", "efficiencies", "renyi_efficiency", "shannon_efficiency", "shannon_entropy", "zipf_exponent"]
