"""A training corpus mixed from several languages by temperature sampling (``train --mix DIR --mix-alpha A``).

Trained on files as they come, a tokenizer spends its vocabulary on the biggest language: 90 % English
and 10 % Korean gives Korean a premium the mix alone decides. XLM-R (Conneau et al. 2020) and BLOOM
sample each language with probability ``q_i ∝ n_i^α`` (``n_i`` its size, ``0 < α ≤ 1``): ``α = 1``
keeps the natural shares, smaller ``α`` lifts the small languages (XLM-R used 0.3, mBERT 0.7).

:func:`plan_mix` reads a directory laid out as ``languages --corpus`` reads one (one UTF-8 file per
language, :func:`bpe_engine.metrics.languages.parallel_corpus.read_corpus` naming them) and says, for
the preview, each language's size, natural share, sampled share, byte budget and how often its text
is repeated (a budget above the language's size repeats it: sampling with replacement, as XLM-R
does). :func:`mix_documents` draws the lines: for each language its lines in an order shuffled by
``numpy.random.default_rng(seed)`` (one generator, languages in name order), taken in turn and
cycled until the budget is met. Same files, ``α`` and seed: the same corpus, line for line.

>>> plan = MixPlan.of([("eng", 900), ("kor", 100)], alpha=0.3)
>>> [(s.code, round(s.natural, 2), round(s.sampled, 2), s.budget, round(s.repeats, 1)) for s in plan.shares]
[('eng', 0.9, 0.66, 659, 0.7), ('kor', 0.1, 0.34, 340, 3.4)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...errors import ConfigError

DEFAULT_ALPHA = 0.3
"""XLM-R's temperature (Conneau et al. 2020, section 3.1)."""


@dataclass(frozen=True, slots=True)
class LanguageShare:
    """One language of a mix: its size in UTF-8 bytes, its natural and sampled shares, its budget."""

    code: str
    size: int
    natural: float
    sampled: float
    budget: int

    @property
    def repeats(self) -> float:
        """How many times over its text is used (above 1: repeated, sampled with replacement)."""
        return self.budget / self.size if self.size else 0.0


@dataclass(frozen=True, slots=True)
class MixPlan:
    alpha: float
    total: int
    shares: tuple[LanguageShare, ...]

    @classmethod
    def of(cls, sizes: Sequence[tuple[str, int]], *, alpha: float = DEFAULT_ALPHA, total: int | None = None) -> MixPlan:
        """Shares for languages of ``sizes`` bytes; ``total`` bytes in all (default: their sum)."""
        if not 0 < alpha <= 1:
            raise ConfigError(f"--mix-alpha must be in (0, 1] (XLM-R used 0.3; 1 keeps the natural shares), got {alpha}")
        kept = [(code, size) for code, size in sizes if size > 0]
        if not kept:
            raise ConfigError("the mix holds no text: give a folder with one non-empty UTF-8 file per language")
        n = np.array([size for _, size in kept], dtype=np.float64)
        natural = n / n.sum()
        weights = natural**alpha
        sampled = weights / weights.sum()
        target = int(n.sum()) if total is None else total
        if target <= 0:
            raise ConfigError(f"the mix's size must be positive, got {target}")
        budgets = np.floor(sampled * target).astype(np.int64)
        shares = tuple(
            LanguageShare(code, size, float(p), float(q), int(b))
            for (code, size), p, q, b in zip(kept, natural, sampled, budgets, strict=True)
        )
        return cls(alpha, target, shares)


def plan_mix(directory: str | Path, *, alpha: float = DEFAULT_ALPHA, total: int | None = None) -> tuple[MixPlan, dict[str, list[str]]]:
    """The plan for the languages of ``directory`` and each one's non-empty lines."""
    from .parallel_corpus import read_corpus

    texts = read_corpus(directory)
    lines = {t.code: [line for _, line in t.parts] for t in texts}
    sizes = [(code, sum(len(line.encode("utf-8")) + 1 for line in ls)) for code, ls in lines.items()]
    return MixPlan.of(sizes, alpha=alpha, total=total), lines


@dataclass(frozen=True, slots=True)
class Mixed:
    """The mixed corpus: documents (lines) in a shuffled order, and the bytes drawn per language."""

    documents: tuple[str, ...]
    drawn: dict[str, int]

    @property
    def shares(self) -> dict[str, float]:
        """Each language's share of the bytes drawn (what the preview promised, measured)."""
        whole = sum(self.drawn.values()) or 1
        return {code: size / whole for code, size in self.drawn.items()}


def mix_documents(plan: MixPlan, lines: dict[str, list[str]], *, seed: int = 0) -> Mixed:
    """Each language's lines drawn until its budget is met, then all of them in one order shuffled
    by the same generator (no language sits in one block of the corpus)."""
    rng = np.random.default_rng(seed)
    drawn: list[str] = []
    sizes: dict[str, int] = {}
    for share in sorted(plan.shares, key=lambda s: s.code):
        pool = lines.get(share.code, [])
        used = k = 0
        order = rng.permutation(len(pool)) if pool else np.zeros(0, dtype=np.int64)
        while pool and used < share.budget:
            line = pool[int(order[k])]
            drawn.append(line)
            used += len(line.encode("utf-8")) + 1
            k += 1
            if k == len(pool):  # every line used once: a new round, in a new order
                order, k = rng.permutation(len(pool)), 0
        sizes[share.code] = used
    return Mixed(tuple(drawn[i] for i in rng.permutation(len(drawn))), sizes)


__all__ = ["DEFAULT_ALPHA", "LanguageShare", "MixPlan", "Mixed", "mix_documents", "plan_mix"]
