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
``(end, length)`` are one contiguous slice with at most one edge per row. ``bwd`` orders them by
begin, then length, then row (``begin_nodes`` order), and ``fold`` by piece, word (table order),
begin: the order in which the E-step adds into each piece's expected count.

Pieces only ever leave the vocabulary: :meth:`Lattices.select` drops edges and keeps all three
orders (a compress keeps sorted arrays sorted), so the sorts happen once per set of words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

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
    ``fwd_bounds[e * K + K - k]`` starts the slice of edges ``(end e, length k)``; ``bwd`` is the
    backward order (a permutation) with ``bwd_bounds[b * K + k - 1]``; ``fold`` the fold order."""

    lengths: np.ndarray
    row_word: np.ndarray
    offset: np.ndarray
    K: int
    row: np.ndarray
    k: np.ndarray
    seed: np.ndarray
    fwd_bounds: np.ndarray
    bwd: np.ndarray
    bwd_bounds: np.ndarray
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
        return np.repeat(np.arange(n_keys) // self.K, np.diff(self.fwd_bounds)).astype(I32)

    def edge_positions(self) -> tuple[np.ndarray, np.ndarray]:
        """Packed indices of every edge's begin and end (forward order)."""
        e = self.ends()
        dst = self.offset[e].astype(I32) + self.row
        src = self.offset[e - self.k].astype(I32) + self.row
        return src, dst

    def select(self, keep: np.ndarray) -> Lattices:
        """The lattices without the edges where ``keep`` is false (slots must be kept)."""
        if keep.all():
            return self
        new_index = (np.cumsum(keep) - 1).astype(I32)
        cum = np.concatenate(([0], np.cumsum(keep)))
        keep_b = keep[self.bwd]
        cum_b = np.concatenate(([0], np.cumsum(keep_b)))
        bwd = self.bwd[keep_b]
        fold = self.fold[keep[self.fold]]
        return Lattices(
            self.lengths, self.row_word, self.offset, self.K, self.row[keep], self.k[keep], self.seed[keep],
            cum[self.fwd_bounds], new_index[bwd], cum_b[self.bwd_bounds], new_index[fold],
        )


def build_lattices(lengths: np.ndarray, matches: Sequence[np.ndarray]) -> Lattices:
    """The lattices of words with ``lengths`` (table order) for ``matches`` = ``(word, begin,
    length, seed)``: every occurrence of every piece (length 1 included)."""
    word, begin, length, seed = (np.asarray(a) for a in matches)
    lengths = np.asarray(lengths, np.int64)
    K = max(int(length.max(initial=1)), 1)
    row_word = np.argsort(-lengths, kind="stable")
    row_of = np.empty(len(lengths), np.int64)
    row_of[row_word] = np.arange(len(lengths))
    max_len = int(lengths.max(initial=0))
    n_at = np.bincount(lengths, minlength=max_len + 1)[::-1].cumsum()[::-1]
    offset = np.concatenate(([0], np.cumsum(n_at)))
    # Slots: one per character, (end e, row) for rows reaching e; the character's piece if any.
    slot_start = np.concatenate(([0], np.cumsum(n_at[1:])))
    n_slots = int(slot_start[-1])
    slot_end = np.repeat(np.arange(1, max_len + 1), n_at[1:])
    slot_row = np.arange(n_slots) - slot_start[slot_end - 1]
    one = length == 1
    slot_seed = np.full(n_slots, -1, np.int64)
    slot_seed[slot_start[begin[one]] + row_of[word[one]]] = seed[one]
    many = ~one
    row = np.concatenate([slot_row, row_of[word[many]]])
    k = np.concatenate([np.ones(n_slots, np.int64), length[many]])
    end = np.concatenate([slot_end, begin[many] + length[many]])
    pieces = np.concatenate([slot_seed, seed[many]])
    n_rows = max(len(lengths), 1)
    order = np.argsort((end * K + (K - k)) * n_rows + row)
    row, k, end, pieces = row[order], k[order], end[order], pieces[order]
    n_keys = (max_len + 1) * K
    fwd_key = end * K + (K - k)
    fwd_bounds = np.searchsorted(fwd_key, np.arange(n_keys + 1))
    beg = end - k
    bwd = np.argsort((beg * K + (k - 1)) * n_rows + row).astype(I32)
    bwd_bounds = np.searchsorted((beg * K + (k - 1))[bwd], np.arange(n_keys + 1))
    table_base = np.concatenate(([0], np.cumsum(lengths)))
    where = table_base[row_word[row]] + beg  # a character's place in the table-order text
    fold = np.argsort((pieces + 1) * (int(table_base[-1]) + 1) + where).astype(I32)
    return Lattices(
        lengths, row_word, offset, K, row.astype(I32), k.astype(np.int8), pieces.astype(I32),
        fwd_bounds, bwd, bwd_bounds, fold,
    )
