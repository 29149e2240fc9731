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

import re

from .bert_normalizer import WHITE_SPACE
from .unicode_tables import PUNCT_RANGES


def _char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(re.escape(chr(lo)) + ("-" + re.escape(chr(hi)) if hi > lo else "") for lo, hi in ranges)


_PUNCT = _char_class(PUNCT_RANGES)
_SPACE = "".join(re.escape(c) for c in sorted(WHITE_SPACE))
# A word is a run of characters that are neither whitespace nor punctuation, or one punctuation mark.
# The standard library's re is used on purpose: with a class this large it is ~3x faster than regex.
_WORD = re.compile(f"[^{_SPACE}{_PUNCT}]+|[{_PUNCT}]")
_PUNCT_SET = frozenset(chr(cp) for lo, hi in PUNCT_RANGES for cp in range(lo, hi + 1))


def is_bert_punctuation(ch: str) -> bool:
    """True when BERT isolates ``ch`` as a word of its own."""
    return ch in _PUNCT_SET


def bert_words(text: str) -> list[str]:
    """The words of (normalised) ``text``, in order."""
    return _WORD.findall(text)


def bert_words_spaced(text: str) -> list[str]:
    """:func:`bert_words` for text whose only whitespace is the plain space -- what BERT's
    clean-text step leaves -- about 2x faster on long text: most space-separated chunks are all
    letters and digits and need no regex."""
    out: list[str] = []
    findall = _WORD.findall
    for chunk in text.split(" "):
        if chunk.isalnum():  # letters/digits only: never punctuation (see test_wordpiece_unicode)
            out.append(chunk)
        elif chunk:
            out.extend(findall(chunk))
    return out


def bert_pieces(text: str) -> list[tuple[str, int, int]]:
    """Each word with its ``[start, end)`` character span in ``text``."""
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]
