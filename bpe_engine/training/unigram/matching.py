"""Where pieces occur in words: every occurrence of every piece, found for all words at once.

Each substring up to the longest piece is looked up by two 64-bit polynomial hashes of its code
points (a false match needs both to collide: ~1e-25 per substring), one length at a time, so
memory stays at a few arrays of the text's size whatever the number of pieces.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

F32 = np.float32
_B1 = np.uint64(0x9E3779B97F4A7C15)
_B2 = np.uint64(0xC2B2AE3D27D4EB4F)


def _codes(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    joined = "".join(texts)
    codes = np.frombuffer(joined.encode("utf-32-le"), np.uint32).astype(np.uint64) + np.uint64(1)
    lengths = np.fromiter(map(len, texts), np.int64, len(texts))
    return codes, lengths


def _windows(codes: np.ndarray, maxlen: int):
    """Yield ``(L, h1, h2)``: both hashes of ``codes[i:i+L]`` for every ``i`` (valid where the
    window fits), for ``L = 1..maxlen``, one length at a time (memory: two arrays)."""
    n = len(codes)
    h1 = np.zeros(n, np.uint64)
    h2 = np.zeros(n, np.uint64)
    with np.errstate(over="ignore"):
        for length in range(1, maxlen + 1):
            m = n - length + 1
            if m <= 0:
                return
            h1[:m] = h1[:m] * _B1 + codes[length - 1 :]
            h2[:m] = h2[:m] * _B2 + codes[length - 1 :]
            yield length, h1, h2


class PieceIndex:
    """Pieces looked up by the hashes of their text (see the module docstring)."""

    def __init__(self, pieces: Sequence[str]) -> None:
        self.maxlen = max(map(len, pieces)) if pieces else 1
        codes, lengths = _codes(pieces)
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        h1 = np.zeros(len(pieces), np.uint64)
        h2 = np.zeros(len(pieces), np.uint64)
        for length, w1, w2 in _windows(codes, self.maxlen):
            sel = np.flatnonzero(lengths == length)
            h1[sel], h2[sel] = w1[starts[sel]], w2[starts[sel]]
        self.order = np.argsort(h1, kind="stable")
        self.h1 = h1[self.order]
        self.h2 = h2[self.order]
        self.lengths = lengths[self.order]

    def find(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every occurrence of a piece in ``texts``: ``(text, begin, length, piece)`` arrays."""
        codes, lengths = _codes(texts)
        n = len(codes)
        text_of = np.repeat(np.arange(len(texts)), lengths)
        ends = np.repeat(np.cumsum(lengths), lengths)
        room = ends - np.arange(n)
        begins = np.arange(n) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        out: tuple[list[np.ndarray], ...] = ([], [], [], [])
        for length, h1, h2 in _windows(codes, self.maxlen):
            pos = np.flatnonzero(room >= length)
            w1 = h1[pos]
            k = np.minimum(np.searchsorted(self.h1, w1), len(self.h1) - 1)
            hit = (self.h1[k] == w1) & (self.h2[k] == h2[pos]) & (self.lengths[k] == length)
            pos, k = pos[hit], k[hit]
            out[0].append(text_of[pos])
            out[1].append(begins[pos])
            out[2].append(np.full(len(pos), length, np.int64))
            out[3].append(self.order[k])
        return tuple(np.concatenate(a) if a else np.zeros(0, np.int64) for a in out)  # type: ignore[return-value]
