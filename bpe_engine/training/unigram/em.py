"""EM over every word's lattice at once: ``RunEStep`` and ``RunMStep``, vectorised.

The E-step adds ``freq x marginal`` of every node into a ``float`` per piece, word after word, node
after node. In C that is ``e = (float)((double)e + v)`` with ``v`` a double: the sum is rounded to
float after each addition, so the order and the rounding both matter. :func:`fold_f32` does exactly
that, in waves (the k-th contribution of every piece in one array operation; the few pieces with
the most contributions finish in a plain loop). ``np.add.at`` would round ``v`` to float first,
which is not the same number. Each piece's contributions come in SentencePiece's order (word by
word, by begin) from the lattices' ``fold`` order, sorted once; the unknown nodes add into piece 0
(the trainer's model has ``unk_id`` 0), merged into its own contributions by word and begin.

``exp`` and ``log`` in the lattice sums are numpy's; they can differ from the C library's by one
unit in the last place of a double (numpy's SIMD code on AVX-512 machines), and every such value
is rounded to float straight after, so a difference survives only when a double falls within one
ulp of a float rounding boundary (about 2^-29 per operation). The M-step and pruning use the C
library's ``log`` (``math.log``).
"""

from __future__ import annotations

from array import array

import numpy as np

from .digamma import digamma, digamma_array
from .lattice import F32, Lattices
from .walks import backward, forward, viterbi

EXPECTED_FREQUENCY_THRESHOLD = 0.5
_WAVE_MIN = 48
UNK_PENALTY = F32(10.0)


def fold_f32(ids: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """``out[ids[k]] = float(out[ids[k]] + values[k])`` for k in order (doubles in, floats kept).

    >>> v = 2.0 ** -24 + 2.0 ** -50  # float(1 + v) rounds up; 1 + float(v) would tie to even, 1.0
    >>> fold_f32(np.array([0, 0]), np.array([1.0, v]), 1).tolist()
    [1.0000001192092896]
    """
    order = np.argsort(ids, kind="stable")
    counts = np.bincount(ids, minlength=size)
    return fold_grouped(values[order], np.concatenate(([0], np.cumsum(counts)[:-1])), counts)


def fold_grouped(values: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """:func:`fold_f32` of values grouped by id: id ``i`` has ``values[starts[i]:][:counts[i]]``, in order."""
    size = len(counts)
    if not len(values):
        return np.zeros(size, F32)
    rank_of = np.argsort(-counts, kind="stable")  # ids by number of values, most first
    start_r = starts[rank_of]
    descending = counts[rank_of]
    acc = np.zeros(size, F32)
    more_than = size - np.cumsum(np.bincount(counts))  # more_than[k]: ids with more than k values
    waves = int(np.searchsorted(-more_than, -_WAVE_MIN, side="right"))  # while at least _WAVE_MIN
    at = start_r.copy()
    for n_k in more_than[:waves].tolist():
        # float + double in double, rounded to float on the way out: C's e = (float)(e + v)
        np.add(acc[:n_k], values[at[:n_k]], out=acc[:n_k], casting="same_kind")
        at[:n_k] += 1
    k = waves
    n_k = int(more_than[waves]) if waves < len(more_than) else 0
    for r in range(n_k):
        acc[r] = _fold_one(float(acc[r]), values[start_r[r] + k : start_r[r] + descending[r]])
    out = np.zeros(size, F32)
    out[rank_of] = acc
    return out


def _fold_one(start: float, values: np.ndarray) -> float:
    """``e = float(e + v)`` for each value in order, from ``start``: a Python loop through a
    one-element C float buffer, which rounds each sum as C's assignment does."""
    cell = memoryview(array("f", [start])).cast("B").cast("f")
    for v in values.tolist():
        cell[0] += v
    return cell[0]


def edge_scores(lat: Lattices, ids: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(piece, score, unknown)`` of every edge (forward order) for the vocabulary ``ids[seed]``
    (-1: gone) with ``scores``; a slot whose character is no piece is the unknown node: piece 0,
    score ``min - 10`` as SentencePiece's model gives it."""
    cur = np.append(ids, -1).astype(np.int32)[lat.seed]
    unk = cur < 0
    cur[unk] = 0
    score = scores[cur]
    score[unk] = F32(scores.min() - UNK_PENALTY) if len(scores) else -UNK_PENALTY
    return cur, score, unk


def _fold_expected(lat: Lattices, ids: np.ndarray, values: np.ndarray, n_pieces: int) -> np.ndarray:
    """Expected counts from every edge's value in fold order (by seed, word, begin): each live
    seed's run is its piece's; the runs of gone characters and of non-pieces are unknown nodes,
    which add into piece 0 merged with its own values by word and begin (unknown after a piece)."""
    bounds = np.searchsorted(lat.seed[lat.fold], np.arange(-1, len(ids) + 1))  # run of seed s at s + 1
    cur_of = np.concatenate(([-1], ids))
    live = cur_of >= 0
    starts = np.zeros(n_pieces, np.int64)
    counts = np.zeros(n_pieces, np.int64)
    starts[cur_of[live]] = bounds[:-1][live]
    counts[cur_of[live]] = np.diff(bounds)[live]
    unknown = [np.arange(bounds[g], bounds[g + 1]) for g in np.flatnonzero(~live & (np.diff(bounds) > 0)).tolist()]
    own = np.arange(starts[0], starts[0] + counts[0])
    first = values[own]
    if unknown:
        at = np.concatenate([own, *unknown])
        edges = lat.fold[at]
        k = lat.k[edges]
        begin = (np.searchsorted(lat.fwd_bounds, edges, side="right") - 1) // lat.K - k
        table_base = np.concatenate(([0], np.cumsum(lat.lengths)))
        where = table_base[lat.row_word[lat.row[edges]]] + begin
        first = values[at[np.lexsort((np.arange(len(at)) >= len(own), k, where))]]
    counts[0] = 0
    expected = fold_grouped(values, starts, counts)
    expected[0] = _fold_one(0.0, first)
    return expected


def _log_marginals(lat: Lattices, alpha: np.ndarray, beta: np.ndarray, score: np.ndarray) -> np.ndarray:
    """``alpha[begin] + score + beta[end] - Z`` of every edge in float, in that order (forward order)."""
    ends = lat.ends()
    x = alpha[lat.packed(ends - lat.k)]
    x += score
    x += beta[lat.packed(ends)]
    del ends
    x -= alpha[lat.final_index()][lat.row]
    return x


def e_step(lat: Lattices, ids: np.ndarray, scores: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, float, int, int]:
    """``RunEStep`` (one thread): expected counts (float32), the objective, the Viterbi tokens of
    the distinct words (SentencePiece's ``ntokens``) and of the corpus (each word times its count).
    ``ids[seed]``: each seed's current id (-1: gone); ``counts``: word counts, table order."""
    cur, score, unk = edge_scores(lat, ids, scores)
    del cur
    alpha = forward(lat, score)
    beta = backward(lat, score, unk)
    del unk
    x = _log_marginals(lat, alpha, beta, score)
    values = x[lat.fold].astype(np.float64)  # in fold order: freq x exp(marginal), in double
    del x
    np.exp(values, out=values)
    values *= counts[lat.row_word].astype(F32)[lat.row[lat.fold]]
    expected = _fold_expected(lat, ids, values, len(scores))
    del values
    z = np.empty(len(lat.row_word), F32)
    z[lat.row_word] = alpha[lat.final_index()]
    freq = counts.astype(F32)
    all_freq = F32(int(counts.sum()))
    terms = np.concatenate(([F32(0)], (freq * z) / all_freq)).astype(F32)
    obj = float(np.subtract.accumulate(terms)[-1])
    _, rows = viterbi(lat, score).walk()
    return expected, obj, len(rows), int(counts[lat.row_word[rows]].sum())


def m_step(expected: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``RunMStep``: ``(kept indices, new float32 scores)``: pieces expected fewer than 0.5 times
    go; the others score ``Digamma(count) - Digamma(sum)`` (sum in float, in order)."""
    keep = np.flatnonzero(~(expected < EXPECTED_FREQUENCY_THRESHOLD))
    kept = expected[keep].astype(F32)
    total = float(np.add.accumulate(kept)[-1]) if len(kept) else 0.0
    logsum = float(F32(digamma(total)))
    return keep, (digamma_array(kept.astype(np.float64)) - logsum).astype(F32)
