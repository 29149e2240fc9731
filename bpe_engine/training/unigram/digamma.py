"""SentencePiece's ``Digamma`` (``unigram_model_trainer.cc``), operation for operation.

The M-step scores a piece ``Digamma(expected count) - Digamma(total)``: the Bayesian (DP-ish) EM
of Liang's tutorial, which pushes rare pieces down harder than ``log(count / total)``. The series
and its order of operations are SentencePiece's, and ``log`` is the C library's (``math.log``),
so every score rounds to the same ``float``.

>>> round(digamma(1.0), 9)  # -Euler-Mascheroni, to the series' accuracy
-0.577215665
>>> digamma_array(np.array([1.0, 10.0])).round(6).tolist()
[-0.577216, 2.251753]
"""

from __future__ import annotations

import math

import numpy as np


def digamma(x: float) -> float:
    result = 0.0
    while x < 7:
        result -= 1 / x
        x += 1
    x -= 1.0 / 2.0
    xx = 1.0 / x
    xx2 = xx * xx
    xx4 = xx2 * xx2
    result += math.log(x) + (1.0 / 24.0) * xx2 - (7.0 / 960.0) * xx4 + (31.0 / 8064.0) * xx4 * xx2 - (127.0 / 30720.0) * xx4 * xx4
    return result


def digamma_array(x: np.ndarray) -> np.ndarray:
    """:func:`digamma` of every element, the same operations in the same order (vectorised)."""
    x = np.asarray(x, np.float64).copy()
    result = np.zeros_like(x)
    while (x < 7).any():
        low = x < 7
        result[low] -= 1 / x[low]
        x[low] += 1
    x -= 1.0 / 2.0
    xx = 1.0 / x
    xx2 = xx * xx
    xx4 = xx2 * xx2
    logs = np.fromiter(map(math.log, x.tolist()), np.float64, len(x))
    result += logs + (1.0 / 24.0) * xx2 - (7.0 / 960.0) * xx4 + (31.0 / 8064.0) * xx4 * xx2 - (127.0 / 30720.0) * xx4 * xx4
    return result
