"""The Unicode script of code points, from SentencePiece's own table (``data/sp_unicode_scripts.tsv``).

One table for the whole engine: the Unigram trainer's piece rule must see scripts exactly as
SentencePiece does (:mod:`bpe_engine.training.unigram.pieces`), and the language figures
(:mod:`bpe_engine.metrics.languages.scripts`) name a text's script with the same table, so the two
never disagree about what is Han or Hangul. Read on first use (a few milliseconds), then cached.

>>> import numpy as np
>>> names = script_table()[3]
>>> [name for name, i in names.items() if i == script_ids(np.array([ord("한")]))[0]]
['Hangul']
>>> script_name_of(ord("한")), script_name_of(ord("\u0301"))
('Hangul', 'Inherited')
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


@cache
def _ranges() -> tuple[list[int], list[int], list[str]]:
    """The table as sorted ``(starts, ends, script names)``, read once."""
    text = resources.files("bpe_engine").joinpath("data/sp_unicode_scripts.tsv").read_text()
    starts, ends, names = [], [], []
    for line in text.splitlines():
        a, b, name = line.split("\t")
        starts.append(int(a, 16))
        ends.append(int(b, 16))
        names.append(name)
    return starts, ends, names


def script_name_of(code: int) -> str:
    """The script of one code point, by name (``Common`` outside every range) -- without numpy,
    for callers that look up a few characters (the app's corpus facts must not load it)."""
    starts, ends, names = _ranges()
    k = bisect_right(starts, code) - 1
    return names[k] if k >= 0 and code <= ends[k] else "Common"


@cache
def script_table() -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, int]]:
    """``(range starts, range ends, script id per range, script name -> id)``; id 0 is ``Common``."""
    import numpy as np

    starts, ends, range_names = _ranges()
    names: dict[str, int] = {"Common": 0}
    ids = [names.setdefault(name, len(names)) for name in range_names]
    return np.array(starts, np.int64), np.array(ends, np.int64), np.array(ids, np.int64), names


def script_ids(codes: np.ndarray) -> np.ndarray:
    """The script id of each code point (``Common`` outside every range)."""
    import numpy as np

    starts, ends, ids, names = script_table()
    k = np.searchsorted(starts, codes, side="right") - 1
    inside = (k >= 0) & (codes <= ends[np.maximum(k, 0)])
    return np.where(inside, ids[np.maximum(k, 0)], names["Common"])


__all__ = ["script_ids", "script_name_of", "script_table"]
