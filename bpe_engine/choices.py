"""Every user-facing vocabulary, once: the CLI's ``choices=`` and the app's selectors read them here.

A :class:`Choice` is a value the engine understands, a short label for a selector that must fit a
narrow form, and a sentence of help (the CLI's ``--help`` and the app's tooltips). Adding a model,
a tie-break rule or a special-text mode is one line here; nothing else keeps its own list.

>>> [c.value for c in TIE_BREAKS]
['hf', 'lexicographic', 'greatest', 'first-seen']
>>> values(MODELS)
('bpe', 'wordpiece', 'unigram')
>>> label_of(TIE_BREAKS, "first-seen")
'first seen'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

V = TypeVar("V", bound=str)
V_co = TypeVar("V_co", bound=str, covariant=True)
"""Covariant: a choice is frozen, so a ``Choice[Literal["hf"]]`` is also a ``Choice[str]`` (the
``", ".join(values(...))`` of a message asks for ``str`` values)."""


@dataclass(frozen=True, slots=True)
class Choice(Generic[V_co]):
    """One value of a vocabulary: what the engine takes, what a selector shows, what help says."""

    value: V_co
    label: str
    help: str


def values(choices: Sequence[Choice[V]]) -> tuple[V, ...]:
    """The engine values, in order (the CLI's ``choices=``)."""
    return tuple(c.value for c in choices)


def label_of(choices: Sequence[Choice[V]], value: str) -> str:
    """The selector label of ``value`` (the value itself when it is not one of ``choices``)."""
    return next((c.label for c in choices if c.value == value), value)


def help_of(choices: Sequence[Choice[V]]) -> str:
    """``value: help`` for each choice, joined: one line of CLI help."""
    return "; ".join(f"{c.value}: {c.help}" for c in choices)


# -- training ----------------------------------------------------------------------------------------
ModelName = Literal["bpe", "wordpiece", "unigram"]
MODELS: tuple[Choice[ModelName], ...] = (
    Choice("bpe", "BPE", "byte-pair encoding: merge the most frequent pair, step by step"),
    Choice("wordpiece", "WordPiece", "merge the pair with the best score count(ab) / (count(a) count(b)) (BERT)"),
    Choice("unigram", "Unigram", "SentencePiece's Unigram: EM over a large seed vocabulary, pruned to the size"),
)

TieBreak = Literal["hf", "lexicographic", "greatest", "first-seen"]
TIE_BREAKS: tuple[Choice[TieBreak], ...] = (
    Choice("hf", "hf: ids", "the pair of smaller ids (left, then right), as Hugging Face tokenizers"),
    Choice("lexicographic", "lexicographic", "the pair that sorts first by its tokens' bytes"),
    Choice("greatest", "greatest", "the pair that sorts last by its tokens' bytes, as max() over byte pairs (a course's reference trainer)"),
    Choice("first-seen", "first seen", "the pair met first in the corpus, as minbpe (the textbook order)"),
)

EndOfWord = Literal["attached", "separate"]
END_OF_WORD_STYLES: tuple[Choice[EndOfWord], ...] = (
    Choice("attached", "attached", "</w> glued to the word's last character (l o w</w>), Hugging Face's end_of_word_suffix"),
    Choice("separate", "separate", "</w> a symbol of its own (l o w </w>), as Sennrich et al. 2016"),
)

PreTokenizerName = Literal["gpt2", "cl100k", "o200k", "whitespace", "end-of-word", "none", "regex"]
PRE_TOKENIZERS: tuple[Choice[PreTokenizerName], ...] = (
    Choice("gpt2", "gpt2 regex", "GPT-2 / r50k / p50k regex (tiktoken)"),
    Choice("cl100k", "cl100k regex", "cl100k_base regex (GPT-3.5/4)"),
    Choice("o200k", "o200k regex", "o200k_base regex (GPT-4o)"),
    Choice("whitespace", "whitespace ▁", "split at whitespace, words marked with ▁ (SentencePiece style)"),
    Choice("end-of-word", "end-of-word </w>", "split at whitespace, words ending in </w> (Sennrich et al. 2016)"),
    Choice("none", "none (whole text)", "no splitting: each document is one piece"),
    Choice("regex", "custom regex…", "your own regex (--pattern)"),
)

VOCAB_SIZE_MAX = 1_000_000
"""The largest vocabulary a trainer accepts: ids stay below 2**21 with room for specials."""

# -- encoding ------------------------------------------------------------------------------------------
SpecialMode = Literal["text", "special", "refuse"]
SPECIAL_MODES: tuple[Choice[SpecialMode], ...] = (
    Choice("text", "<|…|> as plain text", "text spelling a special token is encoded as the ordinary text it is"),
    Choice("special", "<|…|> as special token", "text spelling a special token becomes that token"),
    Choice("refuse", "<|…|> special text: refuse", "text spelling a special token is an error"),
)
DEFAULT_SPECIAL_MODE: SpecialMode = "text"
"""The one special-token default of the engine, the CLI and the app.

Text that happens to spell ``<|endoftext|>`` is encoded as the ordinary text it is: nothing is
refused and nothing silently becomes a control token. Whoever shows the result says when the text
holds special-token text and names the option that changes it (``--special-mode``, the app's
selector); :func:`bpe_engine.special_text.special_text_note` words that note once for all."""

# -- comparison ----------------------------------------------------------------------------------------
OURS = "ours"
"""The comparison row of the model being trained (at the Train tab's step k)."""
COMPARE_ROWS: tuple[str, ...] = ("characters", "words", OURS, "bert-base-uncased", "gpt2", "cl100k_base", "o200k_base")
"""The rows a comparison starts with, by spec: two baselines, ours, and four real tokenizers."""

# -- vocabulary audit ----------------------------------------------------------------------------------
AuditCategory = Literal["ok", "undecodable", "unreachable_single", "unreachable_multi", "special", "single_byte", "utf8_fragment"]
AUDIT_CATEGORIES: tuple[Choice[AuditCategory], ...] = (
    Choice("ok", "ok", "decoded alone and encoded again, it gives back the token"),
    Choice("undecodable", "undecodable", "decoded alone, its text holds U+FFFD: its bytes are not whole UTF-8"),
    Choice("unreachable_single", "unreachable (1 other)", "its text encodes to one other token: the encoder never gives it"),
    Choice("unreachable_multi", "unreachable (split)", "its text encodes to several tokens: the encoder never gives it"),
    Choice("special", "special", "a special token: not made from text"),
    Choice("single_byte", "single byte", "one byte long (shape; overlaps the categories above)"),
    Choice("utf8_fragment", "UTF-8 fragment", "2 or more bytes that are not whole UTF-8 (shape; a part of undecodable)"),
)
"""Land & Bartolo 2024 ("Fishing for Magikarp"), decode-then-encode per id: the first five
partition the vocabulary, the last two describe byte shapes and overlap them (``--json`` ``counts``)."""


__all__ = [
    "AUDIT_CATEGORIES",
    "COMPARE_ROWS",
    "DEFAULT_SPECIAL_MODE",
    "END_OF_WORD_STYLES",
    "MODELS",
    "OURS",
    "PRE_TOKENIZERS",
    "SPECIAL_MODES",
    "TIE_BREAKS",
    "VOCAB_SIZE_MAX",
    "AuditCategory",
    "Choice",
    "EndOfWord",
    "ModelName",
    "PreTokenizerName",
    "SpecialMode",
    "TieBreak",
    "help_of",
    "label_of",
    "values",
]
