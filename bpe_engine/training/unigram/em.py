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
_WAVE_MIN = 64
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
    out = np.zeros(size, np.float64)
    if not len(values):
        return out.astype(F32)
    rank_of = np.argsort(-counts, kind="stable")  # ids by number of values, most first
    start_r = starts[rank_of]
    descending = counts[rank_of]
    acc = np.zeros(size, np.float64)
    more_than = size - np.cumsum(np.bincount(counts))  # more_than[k]: ids with more than k values
    waves = int(np.searchsorted(-more_than, -_WAVE_MIN, side="right"))  # while at least _WAVE_MIN
    for k, n_k in enumerate(more_than[:waves].tolist()):
        acc[:n_k] = (acc[:n_k] + values[start_r[:n_k] + k]).astype(F32)
    k = waves
    n_k = int(more_than[waves]) if waves < len(more_than) else 0
    cell = array("f", [0.0])
    for r in range(n_k):
        cell[0] = acc[r]
        for v in values[start_r[r] + k : start_r[r] + descending[r]].tolist():
            cell[0] = cell[0] + v
        acc[r] = cell[0]
    out[rank_of] = acc
    return out.astype(F32)


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


def _fold_expected(lat: Lattices, cur: np.ndarray, unk: np.ndarray, values: np.ndarray, n_pieces: int) -> np.ndarray:
    vals, ids, unk_f = values[lat.fold], cur[lat.fold], unk[lat.fold]
    zero = unk_f | (ids == 0)
    if unk_f.any():  # piece 0 and the unknown nodes, by word and begin (unknown after a piece)
        at = lat.fold[zero]
        ends = lat.ends()[at]
        table_base = np.concatenate(([0], np.cumsum(lat.lengths)))
        where = table_base[lat.row_word[lat.row[at]]] + (ends - lat.k[at])
        order = np.lexsort((unk_f[zero], lat.k[at], where))
        first = vals[zero][order]
    else:
        first = vals[zero]
    rest = ids[~zero]  # grouped by seed, so each id's values are one run (in any id order)
    counts = np.bincount(rest, minlength=n_pieces)
    counts[0] = len(first)
    starts = np.zeros(n_pieces, np.int64)
    if len(rest):
        run = np.flatnonzero(np.concatenate(([True], rest[1:] != rest[:-1])))
        starts[rest[run]] = run + len(first)
    return fold_grouped(np.concatenate([first, vals[~zero]]), starts, counts)


def e_step(lat: Lattices, ids: np.ndarray, scores: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, float, int]:
    """``RunEStep`` (one thread): expected counts (float32), the objective, the Viterbi tokens.
    ``ids[seed]``: each seed's current id (-1: gone); ``counts``: word counts, table order."""
    cur, score, unk = edge_scores(lat, ids, scores)
    alpha = forward(lat, score)
    beta = backward(lat, score, unk)
    src, dst = lat.edge_positions()
    z_row = alpha[lat.final_index()]
    freq_row = counts[lat.row_word].astype(F32)
    x = ((alpha[src] + score) + beta[dst]) - z_row[lat.row]
    del src, dst
    values = np.exp(x.astype(np.float64))
    values *= freq_row[lat.row]
    expected = _fold_expected(lat, cur, unk, values, len(scores))
    del values, x
    z = np.empty(len(z_row), F32)
    z[lat.row_word] = z_row
    freq = counts.astype(F32)
    all_freq = F32(int(counts.sum()))
    terms = np.concatenate(([F32(0)], (freq * z) / all_freq)).astype(F32)
    obj = float(np.subtract.accumulate(terms)[-1])
    return expected, obj, viterbi(lat, score).num_tokens()


def m_step(expected: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``RunMStep``: ``(kept indices, new float32 scores)``: pieces expected fewer than 0.5 times
    go; the others score ``Digamma(count) - Digamma(sum)`` (sum in float, in order)."""
    keep = np.flatnonzero(~(expected < EXPECTED_FREQUENCY_THRESHOLD))
    kept = expected[keep].astype(F32)
    total = float(np.add.accumulate(kept)[-1]) if len(kept) else 0.0
    logsum = float(F32(digamma(total)))
    return keep, (digamma_array(kept.astype(np.float64)) - logsum).astype(F32)
