"""Where pieces occur in words: every occurrence of every piece, found for all words at once.

Each substring up to the longest piece is looked up by two 64-bit polynomial hashes of its code
points (a false match needs both to collide: ~1e-25 per substring), one length at a time, so
memory stays at a few arrays of the text's size whatever the number of pieces.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

_B1 = np.uint64(0x9E3779B97F4A7C15)
_B2 = np.uint64(0xC2B2AE3D27D4EB4F)
_MIX = np.uint64(0xD6E8FEB86659FD93)


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
    for length in range(1, maxlen + 1):
        m = n - length + 1
        if m <= 0:
            return
        h1[:m], h2[:m] = _extend(h1[:m], h2[:m], codes[length - 1 :])
        yield length, h1, h2


def _extend(h1: np.ndarray, h2: np.ndarray, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both hashes of windows one character longer (``codes``: that character + 1), modulo 2**64."""
    with np.errstate(over="ignore"):
        return h1 * _B1 + codes, h2 * _B2 + codes


class PieceIndex:
    """Pieces looked up by the hashes of their text (see the module docstring).

    The pieces are sorted by bucket (the top bits of their mixed first hash), and a table holds
    where each bucket starts, so a lookup is two reads and a comparison per piece in its bucket
    (about one), not a binary search.
    """

    def __init__(self, pieces: Sequence[str]) -> None:
        self.maxlen = max(map(len, pieces)) if pieces else 1
        codes, lengths = _codes(pieces)
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        h1 = np.zeros(len(pieces), np.uint64)
        h2 = np.zeros(len(pieces), np.uint64)
        for length, w1, w2 in _windows(codes, self.maxlen):
            sel = np.flatnonzero(lengths == length)
            h1[sel], h2[sel] = w1[starts[sel]], w2[starts[sel]]
        self._shift = np.uint64(64 - max(1, len(pieces).bit_length()))
        by_bucket = np.argsort(self._buckets(h1), kind="stable")
        self.order = by_bucket.astype(np.int32)
        self.h1, self.h2, self.lengths = h1[by_bucket], h2[by_bucket], lengths[by_bucket]
        self._bucket = np.searchsorted(self._buckets(self.h1), np.arange((1 << (64 - int(self._shift))) + 1))
        self._deepest = int(np.diff(self._bucket).max(initial=0))

    def _buckets(self, h1: np.ndarray) -> np.ndarray:
        """The bucket of each hash: its top bits after a multiplicative mix (the hash of a single
        character is the character itself, whose top bits are all zero)."""
        with np.errstate(over="ignore"):
            return ((h1 * _MIX) >> self._shift).astype(np.int64)

    def lookup(self, h1: np.ndarray, h2: np.ndarray, length: int) -> np.ndarray:
        """The piece of each window with hashes ``h1``, ``h2`` and ``length`` characters (-1: none)."""
        out = np.full(len(h1), -1, np.int32)
        bucket = self._buckets(h1)
        lo, hi = self._bucket[bucket], self._bucket[bucket + 1]
        for depth in range(self._deepest):
            at = np.flatnonzero(hi - lo > depth)
            if not len(at):
                break
            k = lo[at] + depth
            hit = (self.h1[k] == h1[at]) & (self.h2[k] == h2[at]) & (self.lengths[k] == length)
            out[at[hit]] = self.order[k[hit]]
        return out


def packed_matches(index: PieceIndex, codes: np.ndarray, room: np.ndarray, nxt: np.ndarray) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """Every occurrence of every piece in text laid out position by position (:mod:`.lattice`):
    ``codes`` (code point + 1, uint64), ``room`` (characters from the index to its word's end) and
    ``nxt`` (the index of the word's next character) per index. Yields ``(L, begins, pieces)``
    for each length ``L``, begins ascending; for ``L = 1``, every character with its piece or -1."""
    at = np.flatnonzero(room >= 1).astype(np.int32)
    ptr = at.copy()
    h1 = np.zeros(len(at), np.uint64)
    h2 = np.zeros(len(at), np.uint64)
    for length in range(1, index.maxlen + 1):
        if length > 1:
            keep = room[at] >= length
            at, ptr, h1, h2 = at[keep], nxt[ptr[keep]], h1[keep], h2[keep]
        if not len(at):
            return
        h1, h2 = _extend(h1, h2, codes[ptr])
        piece = index.lookup(h1, h2, length)
        if length == 1:
            yield 1, at, piece
        else:
            hit = piece >= 0
            yield length, at[hit], piece[hit]
