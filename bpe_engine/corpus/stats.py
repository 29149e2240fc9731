"""Size figures of a text for the corpus pane."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.block_text import Text, distinct_symbols, utf8_length
from ..pretokenizers import PreTokenizer
from .fast_split import split_in_segments

if TYPE_CHECKING:  # corpus_words imports this package
    from .cut import CorpusWords


@dataclass(frozen=True, slots=True)
class CorpusStats:
    """What the corpus pane shows while the user types."""

    characters: int
    bytes: int
    words: int
    unique_words: int
    distinct_characters: int
    distinct_bytes: int


def corpus_stats(text: Text, pre_tokenizer: PreTokenizer) -> CorpusStats:
    """Size figures of ``text`` for the corpus pane (pieces as the pre-tokenizer cuts them)."""
    pieces = split_in_segments(text, pre_tokenizer)  # the fast twin on ASCII parts
    return _stats(text, len(pieces), len(set(pieces)))


def stats_of_words(text: Text, words: CorpusWords) -> CorpusStats:
    """The same figures from ``text`` already cut into ``words`` (the pieces a trainer counts):
    the app cuts the corpus once, for these facts and for the training run that follows."""
    return _stats(text, sum(words.counts), len(words.texts))


def _stats(text: Text, words: int, unique_words: int) -> CorpusStats:
    """Read a block at a time: the whole text encoded at once was another copy of the corpus."""
    distinct_characters, distinct_bytes = distinct_symbols(text)
    return CorpusStats(
        characters=len(text),
        bytes=utf8_length(text),
        words=words,
        unique_words=unique_words,
        distinct_characters=distinct_characters,
        distinct_bytes=distinct_bytes,
    )
