"""Compression curve: tokens per character of the training corpus after each number of merges.

Every merge fuses ``MergeStep.occurrences`` token pairs, so the corpus shrinks by exactly that
many tokens -- the whole curve follows from the training log, without re-encoding anything.
The reference tokenizers are single points (their merge count is fixed), drawn as horizontal
lines at their tokens per character on the same text.

>>> from bpe_engine.training.steps import MergeStep
>>> steps = [MergeStep(i, "a", "b", "ab", 0, 1, 2, 5, 1, occ) for i, occ in enumerate([4, 2])]
>>> [(p.merges, p.tokens) for p in compression_curve(steps, initial_tokens=10, corpus_chars=10)]
[(0, 10), (1, 6), (2, 4)]
"""

from __future__ import annotations

from collections.abc import Sequence
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
    if max_points > 1 and len(points) > max_points:
        stride = (len(points) - 1) / (max_points - 1)
        keep = sorted({round(i * stride) for i in range(max_points)})
        points = [points[i] for i in keep]
    return points


def reference_level(tokenizer: Tokenizer, text: str, *, special_mode: SpecialMode = "text") -> ReferenceLevel:
    """Tokens per character of ``tokenizer`` on ``text`` (special-token text counted as text)."""
    n = len(tokenizer.encode(text, special_mode=special_mode))
    return ReferenceLevel(tokenizer.name, n, n / max(len(text), 1), tokenizer.vocab_size)
