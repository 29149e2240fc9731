"""HF normalizers, each twice-callable: on a plain string (ids) and on a :class:`.NormalizedString`.

``normalize_str`` is the fast path ``encode`` uses; ``normalize`` rewrites a NormalizedString with
HF's alignment rules for offsets. Both give the same text (``tests/test_hf_normalizers.py`` checks
it against HF on every component). Character classes are HF's own (:mod:`.unicode_tables`,
:mod:`bpe_engine.wordpiece.unicode_tables`), so ids match HF on any text, not only on Python's
idea of Unicode.

``Precompiled`` (SentencePiece's charsmap) needs :mod:`bpe_engine.sentencepiece`; see
:mod:`.precompiled`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..core.byte_table import bytes_to_token_str
from ..errors import ConfigError
from ..memo import char_table
from ..wordpiece.bert_normalizer import (
    WHITE_SPACE,
    BertNormalizer,
    is_bert_control,
    is_cjk_ideograph,
    is_nonspacing_mark,
    lower_char,
)
from .normalized import NormalizedString
from .splitting import compile_onig, regex_matches
from .unicode_forms import Form, form_changes, normalize_text
from .unicode_tables import is_combining_mark

_SPACES = "".join(sorted(WHITE_SPACE))

GROWTH_FACTOR = 64
GROWTH_SLACK = 1 << 16
"""A normalizer's output may hold 64 characters per input character plus 65,536: NFKD, the most
a Unicode form grows, makes 18 of one (U+FDFA), ByteLevel 4, BertNormalizer 3. More is a file that
grows text without bound: a Sequence of 40 ``Replace`` "a" -> "aa" doubled 24 characters 40 times
(53 s and 2.95 GB before it was stopped); a 10 MB ``Replace`` content or a 5 MB ``Prepend`` made
megabytes of every keystroke in Inspect. The stages that can grow text (Replace, Prepend, and a
Sequence after each of its stages) check their output's length before they build it, so this
bounds memory and, with the regex time budget on Replace's patterns, time."""


def check_growth(where: str, before: int, after: int) -> None:
    """Refuse an output of ``after`` characters from ``before`` past the growth budget.

    >>> check_growth("tokenizer.json: normalizer", 24, 100_000)
    Traceback (most recent call last):
    ...
    bpe_engine.errors.ConfigError: tokenizer.json: normalizer makes 100,000 characters of 24, more than a normalizer may (64 per character + 65,536): it grows the text without bound
    """
    if after > GROWTH_FACTOR * before + GROWTH_SLACK:
        raise ConfigError(
            f"{where or 'a normalizer'} makes {after:,} characters of {before:,}, more than a normalizer may "
            f"({GROWTH_FACTOR} per character + {GROWTH_SLACK:,}): it grows the text without bound"
        )


class Normalizer(Protocol):
    """One normalisation stage."""

    def normalize_str(self, text: str) -> str: ...

    def normalize(self, ns: NormalizedString) -> None: ...


@dataclass(frozen=True)
class UnicodeForm:
    """``NFC``, ``NFD``, ``NFKC`` or ``NFKD``."""

    form: Form

    def normalize_str(self, text: str) -> str:
        return normalize_text(self.form, text)

    def normalize(self, ns: NormalizedString) -> None:
        if normalize_text(self.form, ns.text) != ns.text:  # unchanged text: every change is 0
            ns.transform(form_changes(self.form, ns.text))


class _PerChar:
    """A normaliser that rewrites each character on its own (alignment: the source character)."""

    def __init__(self, rule: Callable[[str], str]) -> None:
        self.rule = rule
        self._table = char_table(rule)

    def normalize_str(self, text: str) -> str:
        return text.translate(self._table)

    def normalize(self, ns: NormalizedString) -> None:
        ns.expand(self.rule)


def lowercase() -> _PerChar:
    """``Lowercase``: Rust's per-character ``to_lowercase`` (no final-sigma context)."""
    return _PerChar(lower_char)


def strip_accents() -> _PerChar:
    """``StripAccents``: drop combining marks (it does not decompose first; pair it with NFD)."""
    return _PerChar(lambda c: "" if is_combining_mark(c) else c)


_NMT_DROP = {*range(0x01, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F, 0x8F, 0x9F}
_NMT_SPACE = {0x09, 0x0A, 0x0C, 0x0D, 0x1680, *range(0x200B, 0x2010), 0x2028, 0x2029, 0x2581, 0xFEFF, 0xFFFD}


def nmt() -> _PerChar:
    """``Nmt``: drop some control characters, turn some spaces and ``▁`` into a plain space."""
    return _PerChar(lambda c: "" if ord(c) in _NMT_DROP else " " if ord(c) in _NMT_SPACE else c)


@dataclass(frozen=True)
class Strip:
    """``Strip``: leading and/or trailing whitespace (Rust's ``char::is_whitespace``)."""

    left: bool = True
    right: bool = True

    def normalize_str(self, text: str) -> str:
        if self.left:
            text = text.lstrip(_SPACES)
        return text.rstrip(_SPACES) if self.right else text

    def normalize(self, ns: NormalizedString) -> None:
        ns.strip(self.left, self.right, WHITE_SPACE.__contains__)


@dataclass(frozen=True)
class Replace:
    """``Replace``: every match of a string or (Oniguruma) regex pattern becomes ``content``.

    ``where`` (file and JSON path) names it when its output would pass :func:`check_growth`."""

    pattern: str
    is_regex: bool
    content: str
    where: str = field(default="", compare=False)

    def _spans(self, text: str) -> list[tuple[int, int]]:
        import regex

        rx = compile_onig(self.pattern if self.is_regex else regex.escape(self.pattern))
        spans = [(s, e) for s, e, m in regex_matches(rx, text) if m]
        check_growth(self.where, len(text), len(text) + sum(len(self.content) - (e - s) for s, e in spans))
        return spans

    def normalize_str(self, text: str) -> str:
        if not self.is_regex and self.pattern:  # a literal never matches empty
            grown = text.count(self.pattern) * (len(self.content) - len(self.pattern))
            check_growth(self.where, len(text), len(text) + grown)
            return text.replace(self.pattern, self.content)
        parts: list[str] = []
        last = 0
        for s, e in self._spans(text):
            parts += (text[last:s], self.content)
            last = e
        parts.append(text[last:])
        return "".join(parts)

    def normalize(self, ns: NormalizedString) -> None:
        ns.replace(self._spans(ns.text), self.content)


@dataclass(frozen=True)
class Prepend:
    """``Prepend``: a prefix before any non-empty text."""

    prefix: str
    where: str = field(default="", compare=False)

    def normalize_str(self, text: str) -> str:
        if not text:
            return text
        check_growth(self.where, len(text), len(self.prefix) + len(text))
        return self.prefix + text

    def normalize(self, ns: NormalizedString) -> None:
        if ns.text:
            check_growth(self.where, len(ns.text), len(self.prefix) + len(ns.text))
        ns.prepend(self.prefix)


class ByteLevelNormalizer:
    """``ByteLevel`` as a normaliser: every character becomes its UTF-8 bytes' GPT-2 characters."""

    def normalize_str(self, text: str) -> str:
        return bytes_to_token_str(text.encode("utf-8", "surrogatepass"))

    def normalize(self, ns: NormalizedString) -> None:
        ns.expand(lambda c: bytes_to_token_str(c.encode("utf-8", "surrogatepass")))


class Bert:
    """``BertNormalizer``: the WordPiece engine's (exact against HF) for text, HF's steps for offsets."""

    def __init__(self, normalizer: BertNormalizer) -> None:
        self.normalizer = normalizer

    def normalize_str(self, text: str) -> str:
        return self.normalizer.normalize(text)

    def normalize(self, ns: NormalizedString) -> None:
        n = self.normalizer
        if n.clean_text:
            ns.expand(lambda c: "" if c in ("\0", "\ufffd") or is_bert_control(c) else " " if c in WHITE_SPACE else c)
        if n.handle_chinese_chars:
            ns.expand(lambda c: f" {c} " if is_cjk_ideograph(c) else c)
        if n.strips_accents:
            ns.transform(form_changes("NFD", ns.text))
            ns.expand(lambda c: "" if is_nonspacing_mark(c) else c)
        if n.lowercase:
            ns.expand(lower_char)


@dataclass(frozen=True)
class SequenceNormalizer:
    """``Sequence``: normalisers applied in order; the text may grow by the growth budget of
    :func:`check_growth` over the whole Sequence, not by that much at each stage."""

    normalizers: Sequence[Normalizer]
    where: str = field(default="", compare=False)

    def normalize_str(self, text: str) -> str:
        size = len(text)
        for i, n in enumerate(self.normalizers):
            text = n.normalize_str(text)
            check_growth(self._stage(i), size, len(text))
        return text

    def normalize(self, ns: NormalizedString) -> None:
        size = len(ns.text)
        for i, n in enumerate(self.normalizers):
            n.normalize(ns)
            check_growth(self._stage(i), size, len(ns.text))

    def _stage(self, i: int) -> str:
        return f"{self.where}.normalizers[{i}]" if self.where else f"stage {i} of a Sequence normalizer"


__all__ = [
    "GROWTH_FACTOR",
    "GROWTH_SLACK",
    "Bert",
    "ByteLevelNormalizer",
    "Normalizer",
    "Prepend",
    "Replace",
    "SequenceNormalizer",
    "Strip",
    "UnicodeForm",
    "check_growth",
    "lowercase",
    "nmt",
    "strip_accents",
]
