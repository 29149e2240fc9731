"""Sentences into words, as ``SplitIntoWords`` / ``SplitSentencesByWhitespace`` make them.

EM runs on distinct words with their counts, so the corpus is cut and counted once: in the default
mode (a word starts at each ``▁``) by one ``str.split`` over all sentences, each sentence's last word
marked by the newline that joins them (the seeds need to know which words end a sentence); in the
other modes by a regular expression, sentence by sentence.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache

from .config import UnigramTrainerConfig
from .pieces import WS

Units = dict[tuple[str, bool], int]
"""``(word, whether it ends its sentence)`` -> count, in the order first seen."""


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
        return re.compile(f"(?<={WS})(?=[^{WS}])" if ws_runs else f"(?<={WS})(?=.)", re.S)
    return re.compile(f"(?<=.)(?<!{WS})(?={WS})" if ws_runs else f"(?<=.)(?={WS})", re.S)


def unit_counts(sentences: Sequence[str], config: UnigramTrainerConfig) -> Units:
    """Every word of every sentence with its count, told apart by whether it ends its sentence.

    >>> from bpe_engine.training.unigram.config import UnigramTrainerConfig as C
    >>> unit_counts(["▁a▁b", "▁b", ""], C())
    {('▁a', False): 1, ('▁b', True): 2}
    """
    joined = "\n ".join(sentences)
    plain = not (config.treat_whitespace_as_suffix or config.allow_whitespace_only_pieces)
    if not plain or " " in joined or joined.count("\n") != max(len(sentences) - 1, 0):
        return _unit_counts_by_regex(sentences, config)
    tokens = Counter((joined + "\n").replace(WS, " " + WS).split(" "))
    units: Units = {}
    for token, n in tokens.items():
        last = token.endswith("\n")
        word = token[:-1] if last else token
        if word:
            units[(word, last)] = n
    return units


def _unit_counts_by_regex(sentences: Iterable[str], config: UnigramTrainerConfig) -> Units:
    splitter = _splitter(config.treat_whitespace_as_suffix, config.allow_whitespace_only_pieces)
    units: Counter[tuple[str, bool]] = Counter()
    for s in sentences:
        words = [w for w in splitter.split(s) if w]
        for w in words[:-1]:
            units[(w, False)] += 1
        if words:
            units[(words[-1], True)] += 1
    return dict(units)


def word_table(units: Units) -> list[tuple[str, int]]:
    """``SplitSentencesByWhitespace``'s table: words with counts, most frequent first, then by text."""
    counts: Counter[str] = Counter()
    for (word, _last), n in units.items():
        counts[word] += n
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def word_counts(sentences: Sequence[str], config: UnigramTrainerConfig) -> list[tuple[str, int]]:
    """:func:`word_table` of the sentences' words."""
    return word_table(unit_counts(sentences, config))
