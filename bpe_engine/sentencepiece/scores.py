"""Piece scores as the Unigram encoders use them, and C ``float`` arithmetic in Python.

SentencePiece keeps path scores in 32-bit ``float``s: each best-path score is rounded to single
precision when stored, and the rounding decides near ties (and depends on where a word sits in a
long text). Python floats are doubles, so :func:`to_f32` rounds a double to the nearest single
exactly as a C cast does. Hugging Face's Unigram keeps doubles throughout (``float32=False``).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass

from .model_proto import PieceType

FLT_MAX = 3.4028234663852886e38
FLT_MIN = 1.1754943508222875e-38
UNK_PENALTY = 10.0

_F32 = struct.Struct("f")


def to_f32(value: float) -> float:
    """``value`` rounded to the nearest IEEE single (ties to even), as a C ``(float)`` cast."""
    return _F32.unpack(_F32.pack(value))[0]


@dataclass(frozen=True, slots=True)
class LatticeScores:
    """What the Viterbi search needs per piece.

    ``in_lattice[id]`` is the score a piece gets as a lattice node, or None when the piece never
    becomes a node (control, unknown, byte and unused pieces in SentencePiece). ``unk_score`` is
    the score of an unknown character (the lowest piece score minus 10).
    """

    by_bytes: tuple[float | None, ...]
    by_chars: tuple[float | None, ...]
    unk_score: float


def lattice_scores(
    pieces: Sequence[tuple[str, float]], kinds: Sequence[PieceType] | None, *, float32: bool
) -> LatticeScores:
    """Node scores, the SentencePiece way when ``kinds`` is given, else Hugging Face's.

    SentencePiece: min/max over NORMAL pieces only (starting from FLT_MAX / FLT_MIN, as
    ``unigram_model.cc`` does), user-defined pieces score ``length * max_score - 0.1`` so they
    always win (length in UTF-8 bytes for the optimized Viterbi, in characters for the lattice
    that n-best uses), unused and reserved pieces are not nodes. Hugging Face: every piece is a
    node with its own score, min over all pieces.
    """
    if kinds is None:
        scores = tuple(float(s) for _p, s in pieces)
        low = min(scores, default=0.0)
        return LatticeScores(scores, scores, low - UNK_PENALTY)
    low, high = FLT_MAX, FLT_MIN
    for (_piece, score), kind in zip(pieces, kinds, strict=True):
        if kind is PieceType.NORMAL:
            low, high = min(low, score), max(high, score)
    by_bytes: list[float | None] = []
    by_chars: list[float | None] = []
    for (piece, score), kind in zip(pieces, kinds, strict=True):
        if kind is PieceType.NORMAL:
            by_bytes.append(score)
            by_chars.append(score)
        elif kind is PieceType.USER_DEFINED:
            # size_t * float is a float product; "- 0.1" then happens in double (the optimized
            # encoder keeps it double; the lattice stores it in a float node).
            by_bytes.append(to_f32(len(piece.encode("utf-8")) * high) - 0.1)
            by_chars.append(to_f32(to_f32(len(piece) * high) - 0.1))
        else:
            by_bytes.append(None)
            by_chars.append(None)
    unk = to_f32(low - UNK_PENALTY) if float32 else low - UNK_PENALTY
    return LatticeScores(tuple(by_bytes), tuple(by_chars), unk)


def in_trie(kinds: Sequence[PieceType] | None, n: int) -> list[bool]:
    """Which pieces the encoder can match in text: SentencePiece matches NORMAL, USER_DEFINED and
    UNUSED pieces (UNUSED then never becomes a node); Hugging Face matches every piece."""
    if kinds is None:
        return [True] * n
    return [k in (PieceType.NORMAL, PieceType.USER_DEFINED, PieceType.UNUSED) for k in kinds]
