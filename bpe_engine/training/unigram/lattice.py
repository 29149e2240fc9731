"""Every word's lattice at once, packed by position: the vectorised form of SentencePiece's ``Lattice``.

*Layout.* Words are *rows*, longest first (ties in table order), so the words that reach position
``p`` are rows ``0 .. n_at[p] - 1`` and position ``p`` of row ``r`` lives at the packed index
``offset[p] + r``: one position of all words is one contiguous block, and an edge of length ``k``
ending at ``e`` reads its begin at ``offset[e - k] + r`` (a shift per slice, no index arrays).

*Edges* are SentencePiece's nodes. Each character has one *slot*, its length-1 node: the
character's piece, or the unknown node when the character is no current piece (SentencePiece adds
that node exactly where no length-1 piece starts). Each occurrence of a longer piece is an edge.
They are held in *forward order* -- by end, longest first, then row -- which is SentencePiece's
``end_nodes`` order (nodes ending at a position come by begin), so the in-edges of one
``(end, length)`` are one contiguous slice with at most one edge per row. That slice is also the
out-edges of one ``(begin, length)``, so the backward walk takes the same slices in another order.
``fold`` orders the edges by piece, word (table order), begin: the order in which the E-step adds
into each piece's expected count.

Pieces only ever leave the vocabulary: :meth:`Lattices.select` drops edges and keeps both orders
(a compress keeps sorted arrays sorted), so the one sort happens once per set of words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .matching import PieceIndex, packed_matches

F32 = np.float32
I32 = np.int32
NO_PATH = F32(-1e30)
"""Stands for "no path yet" / "no edge": ``LogSumExp`` with it returns the other value unchanged."""


@dataclass(frozen=True, slots=True)
class Lattices:
    """The lattices of a set of words for every vocabulary drawn from one set of pieces (the seeds).

    ``lengths``: characters per word (table order); ``row_word``: table index of each row;
    ``offset[p]``: packed index of row 0 at position ``p``; ``K``: the longest edge. Edges in forward
    order: ``row``, ``k`` (length) and ``seed`` (the piece, ``-1`` for a character that is none);
    ``fwd_bounds[e * K + K - k]`` starts the slice of edges ``(end e, length k)``; ``fold`` is the
    fold order (a permutation)."""

    lengths: np.ndarray
    row_word: np.ndarray
    offset: np.ndarray
    K: int
    row: np.ndarray
    k: np.ndarray
    seed: np.ndarray
    fwd_bounds: np.ndarray
    fold: np.ndarray

    @property
    def max_len(self) -> int:
        return len(self.offset) - 2

    @property
    def n_pos(self) -> int:
        return int(self.offset[-1])

    def final_index(self) -> np.ndarray:
        """Packed index of each row's last position (its end of sentence)."""
        return self.offset[self.lengths[self.row_word]] + np.arange(len(self.row_word))

    def ends(self) -> np.ndarray:
        """The end position of every edge (forward order)."""
        n_keys = len(self.fwd_bounds) - 1
        return np.repeat(np.arange(n_keys, dtype=I32) // self.K, np.diff(self.fwd_bounds))

    def packed(self, positions: np.ndarray) -> np.ndarray:
        """Packed index of each edge's position ``positions`` (its begin or end), as int32."""
        return self.offset.astype(I32)[positions] + self.row

    def select(self, keep: np.ndarray) -> Lattices:
        """The lattices without the edges where ``keep`` is false (slots must be kept)."""
        if keep.all():
            return self
        new_index = (np.cumsum(keep) - 1).astype(I32)
        cum = np.concatenate(([0], np.cumsum(keep)))
        fold = self.fold[keep[self.fold]]
        return Lattices(
            self.lengths, self.row_word, self.offset, self.K, self.row[keep], self.k[keep], self.seed[keep],
            cum[self.fwd_bounds], new_index[fold],
        )


def build_lattices(words: Sequence[str], index: PieceIndex) -> Lattices:
    """The lattices of ``words`` (table order) for every vocabulary drawn from ``index``'s pieces.

    Each length's occurrences come out of :func:`~.matching.packed_matches` in packed order, which
    is forward order within one length; so every edge's place is its slice's start plus its rank
    in the slice, counted without a sort. Only the fold order sorts."""
    lengths = np.fromiter(map(len, words), np.int64, len(words))
    row_word = np.argsort(-lengths, kind="stable")
    max_len = int(lengths.max(initial=0))
    n_at = np.bincount(lengths, minlength=max_len + 1)[::-1].cumsum()[::-1]
    offset = np.concatenate(([0], np.cumsum(n_at)))
    begin_of, codes, room, nxt = _packed_text(words, lengths, row_word, offset)
    groups = [(k, at, piece) for k, at, piece in packed_matches(index, codes, room, nxt) if len(at)]
    del codes, room, nxt
    K = max((k for k, _a, _p in groups), default=1)
    n_keys = (max_len + 1) * K
    fwd_count = np.zeros(n_keys, np.int64)
    for k, at, _piece in groups:
        b = begin_of[at]
        fwd_count += np.bincount((b + k) * K + (K - k), minlength=n_keys)
    fwd_bounds = np.concatenate(([0], np.cumsum(fwd_count)))
    n_edges = int(fwd_bounds[-1])
    row = np.empty(n_edges, I32)
    length = np.empty(n_edges, np.int8)
    seed = np.empty(n_edges, I32)
    fold_key = np.empty(n_edges, np.int64)
    table_base = np.concatenate(([0], np.cumsum(lengths)))
    for k, at, piece in groups:
        b = begin_of[at].astype(np.int64)
        r = at - offset[b]
        fwd = _place(fwd_bounds, (b + k) * K + (K - k))
        row[fwd], length[fwd], seed[fwd] = r, k, piece
        fold_key[fwd] = (piece + 1).astype(np.int64) * (int(table_base[-1]) + 1) + table_base[row_word[r]] + b
    del groups
    fold = np.argsort(fold_key).astype(I32)
    return Lattices(lengths, row_word, offset, K, row, length, seed, fwd_bounds, fold)


def _place(bounds: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Where each edge goes in an order whose slices ``bounds`` start, given ``keys`` non-decreasing
    and each slice's edges already in order: the slice's start plus the edge's rank in it."""
    rank = np.arange(len(keys)) - np.searchsorted(keys, keys, side="left")
    return bounds[keys] + rank


def _packed_text(
    words: Sequence[str], lengths: np.ndarray, row_word: np.ndarray, offset: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per packed index: its position in the word, code point + 1, characters left, next index."""
    n_pos = int(offset[-1])
    row_of = np.empty(len(lengths), np.int64)
    row_of[row_word] = np.arange(len(lengths))
    begin_of = np.repeat(np.arange(len(offset) - 1, dtype=I32), np.diff(offset))
    row_at = np.arange(n_pos) - offset[begin_of]
    room = (lengths[row_word][row_at] - begin_of).astype(I32)
    nxt = np.where(room > 0, offset[np.minimum(begin_of + 1, len(offset) - 2)] + row_at, 0).astype(I32)
    codes = np.zeros(n_pos, np.uint64)
    chars = np.frombuffer("".join(words).encode("utf-32-le", "surrogatepass"), np.uint32)
    word_of = np.repeat(np.arange(len(lengths)), lengths)
    at = np.arange(len(chars)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    codes[offset[at] + row_of[word_of]] = chars.astype(np.uint64) + np.uint64(1)
    return begin_of, codes, room, nxt
