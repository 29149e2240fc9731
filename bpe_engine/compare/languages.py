"""What Compare's Languages view shows: every shipped language's figures for one tokenizer, sorted
and searched, and one article in English and in a language, encoded with their token spans.

The app draws these; it computes nothing itself (a worker thread calls :func:`language_table`:
1-3 s for a byte-level built-in over the 532 declarations, longer for a pure-Python encoder).

>>> from bpe_engine.registry import load_tokenizer
>>> table = language_table(load_tokenizer("o200k_base"))
>>> [f.code for f in search(table, "korean")], len(table)
(['kor'], 532)
>>> pair = article_pair(load_tokenizer("gpt2"), "kor")
>>> pair.english.text.splitlines()[0], pair.other.text.splitlines()[0], len(pair.other.ids)
('Article 1', '제 1 조', 205)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .align import RowAlignment, align_row
from ..types import Encoding, Tokenizer
from ..metrics.languages.figures import LanguageFigures, LanguageMeter, by_premium
from ..metrics.languages.udhr import ENGLISH, declarations, find

Metric = Literal["premium", "bytes_per_token"]


def language_table(tokenizer: Tokenizer) -> list[LanguageFigures]:
    """Every shipped declaration through ``tokenizer``, by premium with the scripts grouped."""
    return by_premium(LanguageMeter(tokenizer, find(ENGLISH)[0]).measure_all(declarations()))


def value(figures: LanguageFigures, metric: Metric) -> float | None:
    return figures.premium if metric == "premium" else figures.bytes_per_token


def sorted_by(table: Sequence[LanguageFigures], metric: Metric) -> list[LanguageFigures]:
    """Fairest first: the lowest premium, or the most bytes per token (languages without a value last)."""
    if metric == "premium":
        return by_premium(table)
    return sorted(table, key=lambda f: (f.bytes_per_token is None, -(f.bytes_per_token or 0.0), f.code))


def search(table: Sequence[LanguageFigures], query: str) -> list[LanguageFigures]:
    """The languages whose name or code contains ``query`` (case does not matter; '' keeps all)."""
    q = query.strip().casefold()
    return [f for f in table if not q or q in f.name.casefold() or q in f.code.casefold()]


@dataclass(frozen=True)
class ArticlePair:
    """Article ``number`` in English and in the language, each encoded with its alignment."""

    number: int
    english: Encoding
    other: Encoding
    english_alignment: RowAlignment
    other_alignment: RowAlignment
    direction: str


def article_pair(tokenizer: Tokenizer, code: str, number: int = 1) -> ArticlePair:
    """Article ``number`` (part 0 is the preamble) of English and of declaration ``code``, encoded
    as Compare encodes (special-token text as text); a language without that article gets its first."""
    other = next(d for d in declarations() if d.code == code)
    english = find(ENGLISH)[0]
    if number not in other.numbers:
        number = min(other.numbers)
    eng = tokenizer.encode_detailed(english.part(number), special_mode="text")
    enc = tokenizer.encode_detailed(other.part(number), special_mode="text")
    return ArticlePair(number, eng, enc, align_row(eng), align_row(enc), other.direction)


__all__ = ["ArticlePair", "Metric", "article_pair", "language_table", "search", "sorted_by", "value"]
