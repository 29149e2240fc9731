"""The Unicode script of code points, from SentencePiece's own table (``data/sp_unicode_scripts.tsv``).

One table for the whole engine: the Unigram trainer's piece rule must see scripts exactly as
SentencePiece does (:mod:`bpe_engine.training.unigram.pieces`), and the language figures
(:mod:`bpe_engine.metrics.languages.scripts`) name a text's script with the same table, so the two
never disagree about what is Han or Hangul. Read on first use (a few milliseconds), then cached.

>>> names = script_table()[3]
>>> [name for name, i in names.items() if i == script_ids(np.array([ord("한")]))[0]]
['Hangul']
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import numpy as np


@cache
def script_table() -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, int]]:
    """``(range starts, range ends, script id per range, script name -> id)``; id 0 is ``Common``."""
    text = resources.files("bpe_engine").joinpath("data/sp_unicode_scripts.tsv").read_text()
    names: dict[str, int] = {"Common": 0}
    starts, ends, ids = [], [], []
    for line in text.splitlines():
        a, b, name = line.split("\t")
        starts.append(int(a, 16))
        ends.append(int(b, 16))
        ids.append(names.setdefault(name, len(names)))
    return np.array(starts, np.int64), np.array(ends, np.int64), np.array(ids, np.int64), names


def script_ids(codes: np.ndarray) -> np.ndarray:
    """The script id of each code point (``Common`` outside every range)."""
    starts, ends, ids, names = script_table()
    k = np.searchsorted(starts, codes, side="right") - 1
    inside = (k >= 0) & (codes <= ends[np.maximum(k, 0)])
    return np.where(inside, ids[np.maximum(k, 0)], names["Common"])


__all__ = ["script_ids", "script_table"]
