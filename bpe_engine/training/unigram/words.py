"""Sentences into words, as ``SplitIntoWords`` / ``SplitSentencesByWhitespace`` make them.

EM runs on distinct words with their counts, so the corpus is cut and counted once, a batch of
sentences at a time while it is read: in the default mode (a word starts at each ``▁``) by one
``str.split`` over the batch, each sentence's last word marked by the newline that joins them (the
seeds need to know which words end a sentence); in the other modes by a regular expression,
sentence by sentence.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import cache

from .config import UnigramTrainerConfig
from .pieces import WS

Units = dict[str, int]
"""Each word with its count, in the order first seen; a word that ends its sentence is counted
apart, with a newline after it (it stands for the sentence boundary the seeds need to see)."""


def split_into_words(text: str, config: UnigramTrainerConfig) -> list[str]:
    """``SplitIntoWords``: a word starts at each ``▁`` (at a run of them with
    ``allow_whitespace_only_pieces``), or ends after it with ``treat_whitespace_as_suffix``.

    >>> from bpe_engine.training.unigram.config import UnigramTrainerConfig as C
    >>> split_into_words("▁a▁▁b", C()), split_into_words("a▁b▁", C(treat_whitespace_as_suffix=True))
    (['▁a', '▁', '▁b'], ['a▁', 'b▁'])
    """
    splitter = _splitter(config.treat_whitespace_as_suffix, config.allow_whitespace_only_pieces)
    return [w for w in splitter.split(text) if w]


@cache
def _splitter(suffix: bool, ws_runs: bool) -> re.Pattern[str]:
    if suffix:
        return re.compile(f"(?<={WS})(?=[^{WS}])" if ws_runs else f"(?<={WS})(?=.)", re.DOTALL)
    return re.compile(f"(?<=.)(?<!{WS})(?={WS})" if ws_runs else f"(?<=.)(?={WS})", re.DOTALL)


def unit_counts(sentences: Sequence[str], config: UnigramTrainerConfig, into: Counter[str] | None = None) -> Counter[str]:
    """Every word of every sentence with its count (:data:`Units`), added ``into`` a counter.

    >>> from bpe_engine.training.unigram.config import UnigramTrainerConfig as C
    >>> dict(unit_counts(["▁a▁b", "▁b", ""], C()))
    {'▁a': 1, '▁b\\n': 2}
    """
    units: Counter[str] = Counter() if into is None else into
    joined = "\n ".join(sentences)
    plain = not (config.treat_whitespace_as_suffix or config.allow_whitespace_only_pieces)
    joins = max(len(sentences) - 1, 0)
    if plain and joined.count(" ") == joins and joined.count("\n") == joins:  # no sentence holds either
        units.update((joined + "\n").replace(WS, " " + WS).split(" "))
    else:
        for s in sentences:
            words = split_into_words(s, config)
            if words:
                words[-1] += "\n"
            units.update(words)
    units.pop("", None)
    units.pop("\n", None)  # an empty sentence
    return units


def word_table(units: Units) -> list[tuple[str, int]]:
    """``SplitSentencesByWhitespace``'s table: words with counts, most frequent first, then by text."""
    counts: Counter[str] = Counter()
    for unit, n in units.items():
        counts[unit.removesuffix("\n")] += n
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def word_counts(sentences: Sequence[str], config: UnigramTrainerConfig) -> list[tuple[str, int]]:
    """:func:`word_table` of the sentences' words."""
    return word_table(unit_counts(sentences, config))
