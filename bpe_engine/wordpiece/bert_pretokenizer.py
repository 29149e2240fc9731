"""BERT's pre-tokenizer: split on whitespace (dropped) and punctuation (each mark its own word).

It runs on *normalised* text (see :mod:`.bert_normalizer`), both when training -- the corpus is
reduced to word -> count first -- and when encoding, so the two always agree on word boundaries.
Punctuation is ASCII punctuation (including ``$ + < = > ^ ` | ~``, which Unicode files as
symbols) plus Unicode's P* categories as HF's tables have them.

>>> bert_words("hello, world!")
['hello', ',', 'world', '!']
>>> bert_pieces("a-b")
[('a', 0, 1), ('-', 1, 2), ('b', 2, 3)]
"""

from __future__ import annotations

import regex

from .bert_normalizer import WHITE_SPACE
from .unicode_tables import PUNCT_RANGES


def _char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(regex.escape(chr(lo)) + ("-" + regex.escape(chr(hi)) if hi > lo else "") for lo, hi in ranges)


_PUNCT = _char_class(PUNCT_RANGES)
_SPACE = "".join(regex.escape(c) for c in sorted(WHITE_SPACE))
# A word is a run of characters that are neither whitespace nor punctuation, or one punctuation mark.
_WORD = regex.compile(f"[^{_SPACE}{_PUNCT}]+|[{_PUNCT}]")
_PUNCT_SET = frozenset(chr(cp) for lo, hi in PUNCT_RANGES for cp in range(lo, hi + 1))


def is_bert_punctuation(ch: str) -> bool:
    """True when BERT isolates ``ch`` as a word of its own."""
    return ch in _PUNCT_SET


def bert_words(text: str) -> list[str]:
    """The words of (normalised) ``text``, in order."""
    return _WORD.findall(text)


def bert_pieces(text: str) -> list[tuple[str, int, int]]:
    """Each word with its ``[start, end)`` character span in ``text``."""
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]
