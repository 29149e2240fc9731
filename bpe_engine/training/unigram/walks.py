"""Forward-backward and Viterbi over :class:`~.lattice.Lattices`, in SentencePiece's float order.

SentencePiece walks one lattice at a time; here one walk covers every word: positions left to right
(right to left), and at each position the slices of one edge length in node order, so each word's
``LogSumExp`` and each comparison is made in the order ``lattice.cc`` makes it, in ``float``:

* forward: ``alpha[end] = LogSumExp(...)`` over the nodes ending there, by begin (longest first);
* backward: ``beta[begin]`` over the nodes starting there, shortest first, the unknown node last
  (SentencePiece appends it after the pieces found there);
* Viterbi keeps, per position, the first in-edge with the best backtrace score. Which left node a
  node takes can differ from that edge only when a float sum rounds two scores to one: where the
  best *earlier* in-edge rounds to the same sum (an exact test), the edge's left node is looked up
  again among all in-edges, in order (:func:`_ties`).

A slice is contiguous in the packed layout, and the slice of single characters (all rows that reach
the position) is a plain range of positions too, so a walk costs about ten numpy calls per
``(position, length)`` that holds edges, whatever the number of words, plus the elementwise work.
Where the order decides the bits, the sums stay sequential: each ``LogSumExp`` chain, and each
Viterbi comparison (first best wins).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .lattice import F32, I32, NO_PATH, Lattices

_FAR = F32(50)


def log_sum_exp(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``LogSumExp(x, y)`` in float: the larger plus ``log(exp(min - max) + 1)`` in double, unless
    the two are more than 50 apart (then the larger). ``NO_PATH`` on one side gives the other."""
    vmin = np.minimum(x, y)
    vmax = np.maximum(x, y)
    tail = np.exp((vmin - vmax).astype(np.float64))
    tail += 1.0
    np.log(tail, out=tail)
    tail += vmax
    return np.where(vmax > vmin + _FAR, vmax, tail.astype(F32))


def forward(lat: Lattices, score: np.ndarray) -> np.ndarray:
    """``alpha`` at every packed position (float32): log of the summed probability of every path
    from the word's start to the position."""
    off = lat.offset.tolist()
    fb = lat.fwd_bounds.tolist()
    K, row = lat.K, lat.row
    alpha = np.full(lat.n_pos, NO_PATH, F32)
    alpha[: off[1]] = 0
    for e in range(1, lat.max_len + 1):
        lo, hi = off[e], off[e + 1]
        for k in range(min(e, K), 0, -1):
            a, b = fb[e * K + K - k], fb[e * K + K - k + 1]
            if a == b:
                continue
            if k == 1:  # every row that reaches e, in row order
                v = score[a:b] + alpha[off[e - 1] : off[e - 1] + (b - a)]
                alpha[lo:hi] = log_sum_exp(alpha[lo:hi], v)
            else:
                r = row[a:b]
                v = score[a:b] + alpha[r + off[e - k]]
                t = r + lo
                alpha[t] = log_sum_exp(alpha[t], v)
    return alpha


def backward(lat: Lattices, score: np.ndarray, unk: np.ndarray) -> np.ndarray:
    """``beta`` at every packed position: the same from the position to the word's end. The
    out-edges of ``(begin b, length k)`` are the forward slice ``(end b + k, k)``. ``unk`` marks the
    slots that are unknown nodes: they come last among the nodes starting there."""
    off = lat.offset.tolist()
    fb = lat.fwd_bounds.tolist()
    K, row = lat.K, lat.row
    unk_at = np.flatnonzero(unk)
    unk_score = score[unk_at[0]] if len(unk_at) else NO_PATH
    score = score.copy()
    score[unk_at] = NO_PATH  # taken after the longer pieces below
    beta = np.full(lat.n_pos, NO_PATH, F32)
    beta[lat.final_index()] = 0
    for b in range(lat.max_len - 1, -1, -1):
        for k in range(1, min(K, lat.max_len - b) + 1):
            key = (b + k) * K + K - k
            a, c = fb[key], fb[key + 1]
            if a == c:
                continue
            if k == 1:  # every row that reaches b + 1, in row order
                v = score[a:c] + beta[off[b + 1] : off[b + 1] + (c - a)]
                beta[off[b] : off[b] + (c - a)] = log_sum_exp(beta[off[b] : off[b] + (c - a)], v)
            else:
                r = row[a:c]
                v = score[a:c] + beta[r + off[b + k]]
                t = r + off[b]
                beta[t] = log_sum_exp(beta[t], v)
        if len(unk_at):
            key = (b + 1) * K + K - 1
            lo, hi = np.searchsorted(unk_at, (fb[key], fb[key + 1]))
            r = row[unk_at[lo:hi]]
            t = r + off[b]
            beta[t] = log_sum_exp(beta[t], unk_score + beta[r + off[b + 1]])
    return beta


@dataclass(frozen=True, slots=True)
class BestPaths:
    """Viterbi's result: ``last[row]`` the last edge of each row's best path; the edge before an
    edge is ``arg`` at its begin (the first best in-edge there), or ``tied_prev`` for the ``tied``
    edges (sorted), whose left node a float tie decided."""

    lat: Lattices
    arg: np.ndarray
    last: np.ndarray
    tied: np.ndarray
    tied_prev: np.ndarray

    def prev(self, edges: np.ndarray) -> np.ndarray:
        """The edge before each of ``edges`` in its best path (-1 at the word's start)."""
        lat = self.lat
        ends = (np.searchsorted(lat.fwd_bounds, edges, side="right") - 1) // lat.K
        out = self.arg[lat.offset[ends - lat.k[edges]] + lat.row[edges]]
        if len(self.tied):
            at = np.minimum(np.searchsorted(self.tied, edges), len(self.tied) - 1)
            hit = self.tied[at] == edges
            out[hit] = self.tied_prev[at[hit]]
        return out

    def walk(self) -> tuple[np.ndarray, np.ndarray]:
        """``(edges, rows)`` of every best path, each path from its last edge back to its first."""
        cur = self.last
        rows = np.arange(len(cur))
        out_e, out_r = [], []
        while len(cur):
            out_e.append(cur)
            out_r.append(rows)
            cur = self.prev(cur)
            alive = cur >= 0
            cur, rows = cur[alive], rows[alive]
        if not out_e:
            return np.zeros(0, I32), np.zeros(0, np.int64)
        return np.concatenate(out_e), np.concatenate(out_r)

    def num_tokens(self) -> int:
        return len(self.walk()[0])

    def in_order(self, row_word: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(edges, words)`` of every best path, words in table order, each path left to right."""
        edges, rows = self.walk()
        order = np.lexsort((-np.arange(len(edges)), row_word[rows]))  # later in the walk = further left
        return edges[order], row_word[rows][order]


def viterbi(lat: Lattices, score: np.ndarray) -> BestPaths:
    """``Lattice::Viterbi`` of every word (see the module docstring for its ties)."""
    off = lat.offset.tolist()
    fb = lat.fwd_bounds.tolist()
    K, row = lat.K, lat.row
    n_edges = len(row)
    bt = np.empty(n_edges, F32)
    best = np.full(lat.n_pos, NO_PATH, F32)
    best[: off[1]] = 0
    second = np.full(lat.n_pos, NO_PATH, F32)
    arg = np.full(lat.n_pos, -1, I32)
    for e in range(1, lat.max_len + 1):
        lo = off[e]
        for k in range(min(e, K), 0, -1):
            a, b = fb[e * K + K - k], fb[e * K + K - k + 1]
            if a == b:
                continue
            if k == 1:
                t = slice(lo, lo + (b - a))
                s = slice(off[e - 1], off[e - 1] + (b - a))
            else:
                r = row[a:b]
                t = r + lo
                s = r + off[e - k]
            v = score[a:b] + best[s]
            bt[a:b] = v
            cur = best[t]
            better = v > cur
            second[t] = np.where(better, cur, second[t])
            best[t] = np.where(better, v, cur)
            arg[t] = np.where(better, np.arange(a, b, dtype=I32), arg[t])
    src = lat.packed(lat.ends() - lat.k)
    runner_up = second[src]
    earlier = runner_up > NO_PATH
    runner_up += score
    tied = np.flatnonzero(earlier & (runner_up == bt)).astype(I32)
    del runner_up, earlier
    tied_prev = _ties(lat, tied, src, bt, score) if len(tied) else tied
    return BestPaths(lat, arg, arg[lat.final_index()], tied, tied_prev)


def _ties(lat: Lattices, tied: np.ndarray, src: np.ndarray, bt: np.ndarray, score: np.ndarray) -> np.ndarray:
    """For edges whose best sum an earlier in-edge of their begin reaches too: the first in-edge
    (by begin) whose ``float(backtrace + score)`` is the best sum, as ``Lattice::Viterbi`` takes.
    Each in-edge is found in its slice by a binary search on the row, for all tied edges at once."""
    K, row, fb = lat.K, lat.row, lat.fwd_bounds
    p = np.searchsorted(lat.offset, src[tied], side="right") - 1  # the begin position
    r = (src[tied] - lat.offset[p]).astype(I32)
    want = bt[tied]
    s = score[tied]
    chosen = np.full(len(tied), -1, I32)
    steps = max(1, int(np.diff(fb).max(initial=1)).bit_length())
    for k in range(K, 0, -1):
        open_ = np.flatnonzero((chosen < 0) & (p >= k))
        key = p[open_] * K + (K - k)
        lo, hi = fb[key], fb[key + 1]
        for _ in range(steps):  # the first index in [lo, hi) whose row is not below r
            mid = (lo + hi) // 2
            below = (mid < hi) & (row[np.minimum(mid, len(row) - 1)] < r[open_])
            lo, hi = np.where(below, mid + 1, lo), np.where(below, hi, mid)
        at = np.minimum(lo, len(row) - 1)
        hit = (lo < fb[key + 1]) & (row[at] == r[open_]) & ((bt[at] + s[open_]) == want[open_])
        chosen[open_[hit]] = at[hit]
    return chosen
