"""Where WordPiece fails: the share of ``[UNK]`` and the tokens spent per word.

Byte-level BPE can always fall back to bytes, so its UNK rate is 0 by construction; WordPiece
replaces a whole word by ``[UNK]`` as soon as one position has no piece. Under an English
vocabulary Korean does not even reach ``[UNK]`` often -- uncased BERT decomposes Hangul into jamo,
which the vocabulary holds one by one -- it falls apart into ~3 tokens per syllable instead; both
numbers below make that visible next to BPE.

Words are counted the same way for every tokenizer compared (BERT's whitespace/punctuation split of
the text, not lowercased), so tokens-per-word is comparable across models.

>>> from bpe_engine.wordpiece import bert_base_uncased
>>> s = text_stats(bert_base_uncased(), "unaffable 한")
>>> s.words, s.tokens, s.unk_tokens
(2, 6, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .bert_normalizer import BertNormalizer
from .bert_pretokenizer import bert_words

_WORD_SPLIT = BertNormalizer(lowercase=False, strip_accents=False)


@dataclass(frozen=True, slots=True)
class TextStats:
    """Counts for one tokenizer on one text; the rates are derived, 0.0 for empty text."""

    words: int
    tokens: int
    unk_tokens: int

    @property
    def unk_rate(self) -> float:
        """Share of tokens that are ``[UNK]``."""
        return self.unk_tokens / self.tokens if self.tokens else 0.0

    @property
    def unk_word_rate(self) -> float:
        """Share of words lost to ``[UNK]`` (WordPiece spends one ``[UNK]`` per lost word)."""
        return self.unk_tokens / self.words if self.words else 0.0

    @property
    def tokens_per_word(self) -> float:
        return self.tokens / self.words if self.words else 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "words": self.words, "tokens": self.tokens, "unk_tokens": self.unk_tokens,
            "unk_rate": self.unk_rate, "unk_word_rate": self.unk_word_rate, "tokens_per_word": self.tokens_per_word,
        }


def count_words(text: str) -> int:
    """Words of ``text`` as BERT's pre-tokenizer cuts them (punctuation marks count as words)."""
    return len(bert_words(_WORD_SPLIT.normalize(text)))


def text_stats(tokenizer: Any, text: str) -> TextStats:
    """Stats of any :class:`~bpe_engine.types.Tokenizer` on ``text`` (special-token text encoded as
    text). A tokenizer without ``unk_id`` has no unknown token: 0 UNK."""
    ids = tokenizer.encode(text, special_mode="text")
    unk = tokenizer.unk_id
    return TextStats(words=count_words(text), tokens=len(ids), unk_tokens=0 if unk is None else ids.count(unk))


def unk_rate(tokenizer: Any, text: str) -> float:
    """Share of ``tokenizer``'s tokens for ``text`` that are the unknown token."""
    return text_stats(tokenizer, text).unk_rate


def tokens_per_word(tokenizer: Any, text: str) -> float:
    """Tokens per BERT-split word of ``text``."""
    return text_stats(tokenizer, text).tokens_per_word
