"""Size figures of a text for the corpus pane."""

from __future__ import annotations

from dataclasses import dataclass

from ..pretokenizers import PreTokenizer
from .fast_split import split_in_segments


@dataclass(frozen=True, slots=True)
class CorpusStats:
    """What the corpus pane shows while the user types."""

    characters: int
    bytes: int
    words: int
    unique_words: int
    distinct_characters: int
    distinct_bytes: int


def corpus_stats(text: str, pre_tokenizer: PreTokenizer) -> CorpusStats:
    """Size figures of ``text`` for the corpus pane (pieces as the pre-tokenizer cuts them)."""
    raw = text.encode("utf-8", "surrogateescape")
    pieces = split_in_segments(text, pre_tokenizer)  # the fast twin on ASCII parts
    return CorpusStats(
        characters=len(text),
        bytes=len(raw),
        words=len(pieces),
        unique_words=len(set(pieces)),
        distinct_characters=len(set(text)),
        distinct_bytes=len(set(raw)),
    )
