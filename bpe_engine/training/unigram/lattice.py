"""Every word's lattice at once, as arrays: the vectorised form of SentencePiece's ``Lattice``.

A word of ``n`` characters has positions ``0..n``; all words' positions are numbered globally
(``base[w] + p``). An *edge* is a lattice node: a piece occurrence ``(word, begin, end, piece)``,
or an unknown node where no one-character piece starts (id 0, as SentencePiece's trainer model
has ``unk_id = 0``). Edges keep SentencePiece's node order: by begin, pieces by length, the
unknown node last.

Forward, backward and Viterbi walk the positions left to right (right to left) for all words
together; at one position the incoming (outgoing) edges are taken one rank at a time, in node
order, so each ``LogSumExp`` and each comparison happens in the order SentencePiece makes it, in
``float``. Matching pieces in words uses two 64-bit polynomial hashes of every substring up to the
longest piece (a false match needs both to collide: ~1e-25 per substring).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass
class Edges:
    """One lattice per word, for one vocabulary: edges in SentencePiece's node order."""

    word: np.ndarray
    begin: np.ndarray
    end: np.ndarray
    piece: np.ndarray  # current id (0 for unknown nodes, as SentencePiece's trainer model)
    score: np.ndarray  # float32
    lengths: np.ndarray  # characters per word
    base: np.ndarray  # global index of each word's position 0

    @property
    def gb(self) -> np.ndarray:
        return self.base[self.word] + self.begin

    @property
    def ge(self) -> np.ndarray:
        return self.base[self.word] + self.end


def build_edges(matches: tuple[np.ndarray, ...], lengths: np.ndarray, ids: np.ndarray, scores: np.ndarray) -> Edges:
    """The edges of the current vocabulary. ``matches`` are all occurrences of *some* superset
    of it (the seeds); ``ids[seed]`` is the current id or -1, ``scores`` float32 by current id."""
    word, begin, length, seed = matches
    cur = ids[seed]
    keep = cur >= 0
    word, begin, length, cur = word[keep], begin[keep], length[keep], cur[keep]
    base = np.concatenate(([0], np.cumsum(lengths + 1)[:-1]))
    total = int(lengths.sum())
    has_single = np.zeros(total + len(lengths), bool)
    has_single[(base[word] + begin)[length == 1]] = True
    pos_word = np.repeat(np.arange(len(lengths)), lengths)
    pos_begin = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    missing = ~has_single[base[pos_word] + pos_begin]
    unk_score = F32(scores.min() - F32(10.0)) if len(scores) else F32(-10.0)
    u_word, u_begin = pos_word[missing], pos_begin[missing]
    word = np.concatenate([word, u_word])
    begin = np.concatenate([begin, u_begin])
    end = begin + np.concatenate([length, np.ones(len(u_word), np.int64)])
    rank = np.concatenate([length, np.full(len(u_word), 1 << 20, np.int64)])  # unknown last
    piece = np.concatenate([cur, np.zeros(len(u_word), np.int64)])
    score = np.concatenate([scores[cur], np.full(len(u_word), unk_score, F32)]).astype(F32)
    order = np.lexsort((rank, begin, word))
    return Edges(word[order], begin[order], end[order], piece[order], score[order], lengths, base)


def _slices(primary: np.ndarray, group: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int, int]]]:
    """Edges ordered by (primary, rank within (primary, group) in the given order, group), and the
    slices ``(primary, start, stop)`` of each (primary, rank): at most one edge per group each."""
    n = len(primary)
    if n == 0:
        return np.zeros(0, np.int64), []
    key_order = np.lexsort((np.arange(n), group, primary))
    p, g = primary[key_order], group[key_order]
    new = np.ones(n, bool)
    new[1:] = (p[1:] != p[:-1]) | (g[1:] != g[:-1])
    starts = np.flatnonzero(new)
    rank = np.arange(n) - np.repeat(starts, np.diff(np.append(starts, n)))
    order2 = np.lexsort((g, rank, p))
    final = key_order[order2]
    p2, r2 = p[order2], rank[order2]
    cut = np.flatnonzero(np.concatenate(([True], (p2[1:] != p2[:-1]) | (r2[1:] != r2[:-1]), [True])))
    return final, [(int(p2[a]), int(r2[a]), int(a), int(b)) for a, b in zip(cut[:-1], cut[1:])]


def _lse(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``LogSumExp(x, y)`` in float: the larger plus ``log(exp(min - max) + 1)`` in double."""
    vmin = np.minimum(x, y)
    vmax = np.maximum(x, y)
    far = vmax > (vmin + F32(50))
    tail = np.log(np.exp((vmin - vmax).astype(np.float64)) + 1.0)
    return np.where(far, vmax, (vmax.astype(np.float64) + tail).astype(F32))


def forward_backward(e: Edges) -> tuple[np.ndarray, np.ndarray]:
    """``alpha``/``beta`` per global position (float32), SentencePiece's order of summation."""
    npos = int(e.lengths.sum() + len(e.lengths))
    gb, ge = e.gb, e.ge
    alpha = np.zeros(npos, F32)
    order, slices = _slices(e.end, e.word)  # in-edges of a position, by begin (node order)
    for _p, rank, a, b in slices:
        idx = order[a:b]
        v = e.score[idx] + alpha[gb[idx]]
        tgt = ge[idx]
        alpha[tgt] = v if rank == 0 else _lse(alpha[tgt], v)
    beta = np.zeros(npos, F32)
    order, slices = _slices(-e.begin, e.word)  # out-edges, in node order, right to left
    for _p, rank, a, b in slices:
        idx = order[a:b]
        v = e.score[idx] + beta[ge[idx]]
        tgt = gb[idx]
        beta[tgt] = v if rank == 0 else _lse(beta[tgt], v)
    return alpha, beta


def viterbi(e: Edges) -> tuple[np.ndarray, np.ndarray]:
    """``Lattice::Viterbi`` of every word: ``(edges of all best paths, word of each)``, words in
    order, each path left to right. A node keeps the first left node whose float sum is best."""
    n_edges = len(e.word)
    gb, ge = e.gb, e.ge
    npos = int(e.lengths.sum() + len(e.lengths))
    bt = np.zeros(n_edges, F32)
    prev = np.full(n_edges, -1, np.int64)
    best_at = np.zeros(npos, F32)  # max back-trace score of the edges ending at a position
    arg_at = np.full(npos, -1, np.int64)
    second_at = np.full(npos, -np.inf, F32)
    in_order, in_slices = _slices(e.end, e.word)
    out_order = np.argsort(e.begin, kind="stable")
    out_bounds = np.searchsorted(e.begin[out_order], np.arange(int(e.lengths.max(initial=0)) + 2))
    k_in = 0
    by_end = end_sorted = None
    for p in range(int(e.lengths.max(initial=0)) + 1):
        while k_in < len(in_slices) and in_slices[k_in][0] == p:
            _p, _rank, a, b = in_slices[k_in]
            idx = in_order[a:b]
            tgt = ge[idx]
            fresh = arg_at[tgt] < 0
            better = fresh | (bt[idx] > best_at[tgt])
            second_at[tgt] = np.where(better & ~fresh, best_at[tgt], second_at[tgt])
            best_at[tgt] = np.where(better, bt[idx], best_at[tgt])
            arg_at[tgt] = np.where(better, idx, arg_at[tgt])
            k_in += 1
        idx = out_order[out_bounds[p] : out_bounds[p + 1]]
        if not len(idx):
            continue
        src = gb[idx]
        if p == 0:
            bt[idx] = e.score[idx]
            continue
        best = best_at[src]
        bt[idx] = best + e.score[idx]
        prev[idx] = arg_at[src]
        gap = best - second_at[src]
        risky = np.flatnonzero(gap <= 4 * np.spacing(np.abs(bt[idx])) + 4 * np.spacing(np.abs(best)))
        if len(risky) and by_end is None:
            by_end = np.argsort(ge, kind="stable")  # in-edges of each position, in node order
            end_sorted = ge[by_end]
        for r in risky.tolist():  # a rounding tie is possible: decide it as SentencePiece does
            _exact_prev(e, int(idx[r]), bt, prev, by_end, end_sorted)
    word_end = e.base + e.lengths
    last = arg_at[word_end]
    return _paths(last, prev, len(e.lengths))


def _exact_prev(e: Edges, r: int, bt: np.ndarray, prev: np.ndarray, by_end: np.ndarray, end_sorted: np.ndarray) -> None:
    src = e.base[e.word[r]] + e.begin[r]
    a, b = np.searchsorted(end_sorted, [src, src + 1])
    cands = by_end[a:b]  # in node order: by begin
    sums = (bt[cands] + e.score[r]).astype(F32)
    best = sums.max()
    prev[r] = cands[np.flatnonzero(sums == best)[0]]
    bt[r] = best


def _paths(last: np.ndarray, prev: np.ndarray, n_words: int) -> tuple[np.ndarray, np.ndarray]:
    steps_e, steps_w = [], []
    cur = last.copy()
    words = np.arange(n_words)
    alive = cur >= 0
    cur, words = cur[alive], words[alive]
    while len(cur):
        steps_e.append(cur)
        steps_w.append(words)
        cur = prev[cur]
        alive = cur >= 0
        cur, words = cur[alive], words[alive]
    if not steps_e:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    edges = np.concatenate(steps_e)
    wds = np.concatenate(steps_w)
    depth = np.concatenate([np.full(len(s), -k, np.int64) for k, s in enumerate(steps_e)])
    order = np.lexsort((depth, wds))  # per word, the first step (last node) comes last
    return edges[order], wds[order]
