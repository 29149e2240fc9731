"""EM over every word's lattice at once: ``RunEStep`` and ``RunMStep``, vectorised.

The E-step adds ``freq x marginal`` of every node into a ``float`` per piece, word after word, node
after node. In C that is ``e = (float)((double)e + v)`` with ``v`` a double: the sum is rounded to
float after each addition, so the order and the rounding both matter. :func:`fold_f32` does exactly
that, in waves (the k-th contribution of every piece in one array operation; the few pieces with
the most contributions finish in a plain loop). ``np.add.at`` would round ``v`` to float first,
which is not the same number.

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
from .lattice import Edges, forward_backward, viterbi

F32 = np.float32
EXPECTED_FREQUENCY_THRESHOLD = 0.5
_WAVE_MIN = 64


def fold_f32(ids: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """``out[ids[k]] = float(out[ids[k]] + values[k])`` for k in order (doubles in, floats kept).

    >>> v = 2.0 ** -24 + 2.0 ** -50  # float(1 + v) rounds up; 1 + float(v) would tie to even, 1.0
    >>> fold_f32(np.array([0, 0]), np.array([1.0, v]), 1).tolist()
    [1.0000001192092896]
    """
    out = np.zeros(size, np.float64)
    if not len(ids):
        return out.astype(F32)
    order = np.argsort(ids, kind="stable")
    sid = ids[order]
    vals = values[order]
    counts = np.bincount(sid, minlength=size)
    rank_of = np.argsort(-counts, kind="stable")  # pieces by number of contributions
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    within = np.arange(len(sid)) - starts[sid]
    pos_rank = np.empty(size, np.int64)
    pos_rank[rank_of] = np.arange(size)
    wave_order = np.lexsort((pos_rank[sid], within))
    wvals = vals[wave_order]
    ascending = counts[rank_of][::-1]
    acc = np.zeros(size, np.float64)
    off = 0
    k = 0
    while True:
        n_k = size - int(np.searchsorted(ascending, k, side="right"))  # pieces with count > k
        if n_k < _WAVE_MIN:
            break
        acc[:n_k] = (acc[:n_k] + wvals[off : off + n_k]).astype(F32)
        off += n_k
        k += 1
    if n_k:
        cell = array("f", [0.0])
        for r in range(n_k):
            piece = int(rank_of[r])
            first = starts[piece] + k
            cell[0] = acc[r]
            for v in vals[first : starts[piece] + counts[piece]].tolist():
                cell[0] = cell[0] + v
            acc[r] = cell[0]
    out[rank_of] = acc
    return out.astype(F32)


def e_step(edges: Edges, counts: np.ndarray, n_pieces: int) -> tuple[np.ndarray, float, int]:
    """``RunEStep`` (one thread): expected counts (float32), the objective, the Viterbi tokens."""
    alpha, beta = forward_backward(edges)
    z = alpha[edges.base + edges.lengths]
    x = ((alpha[edges.gb] + edges.score) + beta[edges.ge]) - z[edges.word]
    freq = counts.astype(F32)
    values = freq[edges.word].astype(np.float64) * np.exp(x.astype(np.float64))
    expected = fold_f32(edges.piece, values, n_pieces)
    all_freq = F32(int(counts.sum()))
    terms = np.concatenate(([F32(0)], (freq * z) / all_freq)).astype(F32)
    obj = float(np.subtract.accumulate(terms)[-1])
    path, _words = viterbi(edges)
    return expected, obj, int(len(path))


def m_step(expected: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``RunMStep``: ``(kept indices, new float32 scores)``: pieces expected fewer than 0.5 times
    go; the others score ``Digamma(count) - Digamma(sum)`` (sum in float, in order)."""
    keep = np.flatnonzero(~(expected < EXPECTED_FREQUENCY_THRESHOLD))
    kept = expected[keep].astype(F32)
    total = float(np.add.accumulate(kept)[-1]) if len(kept) else 0.0
    logsum = float(F32(digamma(total)))
    return keep, (digamma_array(kept.astype(np.float64)) - logsum).astype(F32)
