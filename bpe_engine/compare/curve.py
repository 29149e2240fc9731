"""Compression curve: tokens per character of the training corpus after each number of merges.

Every merge fuses ``MergeStep.occurrences`` token pairs, so the corpus shrinks by exactly that
many tokens -- the whole curve follows from the training log, without re-encoding anything.
The reference tokenizers are single points (their merge count is fixed), drawn as horizontal
lines at their tokens per character on the same text.

The same log gives the token types' counts after each merge -- ``left`` and ``right`` lose
``occurrences`` each (twice that for a pair of one token), ``new`` gains them -- so
:func:`efficiency_curve` gives the Rényi efficiency of the corpus after k merges (``bpe-explorer
metrics``'s figure, by its function) from the counts before any merge, again without re-encoding.

>>> from bpe_engine.training.steps import MergeStep
>>> steps = [MergeStep(i, "a", "b", "ab", 0, 1, 2, 5, 1, occ) for i, occ in enumerate([4, 2])]
>>> [(p.merges, p.tokens) for p in compression_curve(steps, initial_tokens=10, corpus_chars=10)]
[(0, 10), (1, 6), (2, 4)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..pretokenizers import PreTokenizer
from ..training.steps import MergeStep
from ..types import SpecialMode, Tokenizer


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """After ``merges`` merges the corpus is ``tokens`` tokens long."""

    merges: int
    tokens: int
    tokens_per_char: float


@dataclass(frozen=True, slots=True)
class ReferenceLevel:
    """A fixed tokenizer's tokens per character on the same text (a horizontal line)."""

    name: str
    tokens: int
    tokens_per_char: float
    vocab_size: int


def initial_symbol_count(text: str, pre_tokenizer: PreTokenizer, *, byte_level: bool) -> int:
    """Tokens before any merge: every byte (byte-level) or character of every piece.

    Whitespace that a pre-tokenizer drops (the ``</w>`` style) is not counted; the ``▁`` marker
    of the SentencePiece style is, since it is a symbol of its own.
    """
    pieces = pre_tokenizer.split(text)
    # a separate </w> (l o w </w>) is one more symbol per word
    marks = len(pieces) if pre_tokenizer.end_of_word_suffix and pre_tokenizer.end_of_word == "separate" else 0
    if byte_level:
        return sum(len(p.encode("utf-8", "surrogatepass")) for p in pieces) + marks
    return sum(len(p) for p in pieces) + marks


def compression_curve(
    steps: Sequence[MergeStep], *, initial_tokens: int, corpus_chars: int, max_points: int = 0
) -> list[CurvePoint]:
    """Points ``(k, tokens after k merges)`` for k = 0..len(steps).

    ``max_points`` > 1 thins the curve to about that many points (always keeping both ends), which
    is all a terminal chart can draw.
    """
    chars = max(corpus_chars, 1)
    tokens = initial_tokens
    points = [CurvePoint(0, tokens, tokens / chars)]
    for k, step in enumerate(steps, start=1):
        tokens -= step.occurrences
        points.append(CurvePoint(k, tokens, tokens / chars))
    return [points[k] for k in _kept(len(points), max_points)]


def _kept(n_points: int, max_points: int) -> list[int]:
    """The points (0..n_points-1) a curve thinned to about ``max_points`` keeps: both ends always.
    Both curves keep the same k, so their series line up on the chart."""
    if max_points > 1 and n_points > max_points:
        stride = (n_points - 1) / (max_points - 1)
        return sorted({round(i * stride) for i in range(max_points)})
    return list(range(n_points))


@dataclass(frozen=True, slots=True)
class EfficiencyPoint:
    """After ``merges`` merges the corpus uses ``types`` token types, with this Rényi efficiency of
    order ``alpha`` (None below two types)."""

    merges: int
    types: int
    renyi_efficiency: float | None
    alpha: float


def efficiency_curve(
    steps: Sequence[MergeStep], initial_counts: Mapping[str, int], *, alpha: float | None = None, max_points: int = 0
) -> list[EfficiencyPoint]:
    """The corpus's Rényi efficiency after k merges, k = 0..len(steps) (thinned as
    :func:`compression_curve` is), from each token type's count before any merge (by its string in
    the model's alphabet, as the steps name tokens: ``Stepper.initial_type_counts``). ``alpha``
    defaults to ``bpe_engine.metrics.DEFAULT_ALPHA``.

    Each point costs a pass over the types, so only the points kept are measured; the counts follow
    every step (three updates each). numpy is imported here: opening Compare does not wait for it.

    >>> from bpe_engine.training.steps import MergeStep
    >>> points = efficiency_curve([MergeStep(0, "a", "b", "ab", 0, 1, 2, 2, 1, 2)], {"a": 3, "b": 2, "c": 1})
    >>> [(p.merges, p.types, round(p.renyi_efficiency, 4)) for p in points]
    [(0, 3, 0.8358), (1, 3, 0.8678)]
    """
    import numpy as np

    from ..metrics.efficiency import DEFAULT_ALPHA, renyi_efficiency

    order = DEFAULT_ALPHA if alpha is None else alpha
    slot = {token: i for i, token in enumerate(initial_counts)}
    counts = np.zeros(len(slot) + 2 * len(steps) + 1, dtype=np.int64)  # room for every token a step names
    counts[: len(slot)] = list(initial_counts.values())

    def at(token: str) -> int:
        return slot.setdefault(token, len(slot))

    def point(k: int) -> EfficiencyPoint:
        return EfficiencyPoint(k, int(np.count_nonzero(counts > 0)), renyi_efficiency(counts, order), order)

    kept = _kept(len(steps) + 1, max_points)
    out: list[EfficiencyPoint] = []
    upto = 0  # merges applied to the counts
    for k in kept:
        for step in steps[upto:k]:
            n = step.occurrences
            counts[at(step.left)] -= n
            counts[at(step.right)] -= n
            counts[at(step.new)] += n
        upto = k
        out.append(point(k))
    return out


def reference_level(tokenizer: Tokenizer, text: str, *, special_mode: SpecialMode = "text") -> ReferenceLevel:
    """Tokens per character of ``tokenizer`` on ``text`` (special-token text counted as text)."""
    n = len(tokenizer.encode(text, special_mode=special_mode))
    return ReferenceLevel(tokenizer.name, n, n / max(len(text), 1), tokenizer.vocab_size)
