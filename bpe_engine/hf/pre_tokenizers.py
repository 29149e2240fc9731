"""HF pre-tokenizers: cut normalised text into the pieces the model encodes one by one.

Every stage offers two entry points over a list of pieces: ``split_fast`` on plain strings (what
``encode`` runs) and ``split_aligned`` on :class:`.NormalizedString` pieces (offsets). Both derive
their cuts from one :func:`~.splitting.split_spans` rule -- or, on the fast path of a character
class, from a regex that yields exactly those spans (``_CLASS_TEMPLATES``, checked against HF for
every behaviour in ``tests/test_hf_pre_tokenizers.py``).

``first_at_origin`` tells a stage that the first piece starts at the very beginning of the input:
only ``Metaspace(prepend_scheme="first")`` cares (see :mod:`.pipeline` for when it is exact).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

import regex

from ..core.byte_table import BYTE_CHARS, bytes_to_token_str
from ..pretokenizers import HF_GPT2_PATTERN
from ..wordpiece.bert_normalizer import WHITE_SPACE
from ..wordpiece.bert_pretokenizer import bert_words
from ..wordpiece.unicode_tables import PUNCT_RANGES
from .normalized import NormalizedString
from .splitting import Piece, compile_onig, regex_matches, run_pattern, split_spans
from .unicode_tables import EXTRA_NUMERIC


class PreTokenizerStage(Protocol):
    """One pre-tokenization stage (see the module docstring)."""

    def split_fast(self, pieces: list[str], first_at_origin: bool) -> list[str]: ...

    def split_aligned(self, pieces: list[NormalizedString], original: str) -> list[NormalizedString]: ...


# The regex whose findall gives the spans a behaviour keeps around single-character matches of C.
_CLASS_TEMPLATES = {
    "Isolated": "[{c}]|[^{c}]+",
    "Removed": "[^{c}]+",
    "Contiguous": "[{c}]+|[^{c}]+",
    "MergedWithPrevious": "[^{c}]*[{c}]|[^{c}]+",
    "MergedWithNext": "[{c}][^{c}]*|[^{c}]+",
}


def _ranges_class(ranges: Sequence[tuple[int, int]]) -> str:
    return "".join(regex.escape(chr(lo)) + ("-" + regex.escape(chr(hi)) if hi > lo else "") for lo, hi in ranges)


_SPACE_CLASS = "".join(regex.escape(c) for c in sorted(WHITE_SPACE))
_PUNCT_CLASS = _ranges_class(PUNCT_RANGES)


@lru_cache(maxsize=1)
def _numeric_class() -> str:
    """Rust's ``char::is_numeric`` as a class (built on first use: it scans every code point)."""
    cps = [cp for cp in range(0x110000) if unicodedata.category(chr(cp)) in ("Nd", "Nl", "No")]
    cps += [cp for lo, hi in EXTRA_NUMERIC for cp in range(lo, hi + 1)]
    ranges: list[list[int]] = []
    for cp in sorted(cps):
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    return _ranges_class([(lo, hi) for lo, hi in ranges])


class _Splitter:
    """Cut each piece at the matches of a pattern, by a behaviour (HF ``NormalizedString::split``)."""

    behavior = "Isolated"
    invert = False
    fast: regex.Pattern[str] | None = None  # findall == the kept pieces, when such a regex exists

    def matches(self, text: str) -> list[Piece]:
        raise NotImplementedError

    def split_one(self, text: str) -> list[str]:
        if self.fast is not None:
            return run_pattern(self.fast, "findall", text, trusted=True)
        spans = split_spans(self.matches(text), self.behavior, self.invert)
        return [text[s:e] for s, e in spans if e > s]

    def split_fast(self, pieces: list[str], first_at_origin: bool) -> list[str]:
        out: list[str] = []
        for piece in pieces:
            out += self.split_one(piece)
        return out

    def split_aligned(self, pieces: list[NormalizedString], original: str) -> list[NormalizedString]:
        out: list[NormalizedString] = []
        for ns in pieces:
            for s, e in split_spans(self.matches(ns.text), self.behavior, self.invert):
                if e > s:
                    out.append(ns.slice(s, e))
        return out


class CharClassSplit(_Splitter):
    """Split on single characters of a class: Punctuation, Digits, WhitespaceSplit, CharDelimiterSplit."""

    def __init__(self, char_class: str, behavior: str) -> None:
        self.behavior = behavior
        self._one = regex.compile(f"[{char_class}]")
        self.fast = regex.compile(_CLASS_TEMPLATES[behavior].format(c=char_class))

    def matches(self, text: str) -> list[Piece]:
        return regex_matches(self._one, text, trusted=True)


def punctuation(behavior: str = "Isolated") -> CharClassSplit:
    """``Punctuation``: ASCII punctuation and Unicode P* (HF's table)."""
    return CharClassSplit(_PUNCT_CLASS, behavior)


def digits(individual: bool) -> CharClassSplit:
    """``Digits``: numeric characters alone (``individual_digits``) or in runs."""
    return CharClassSplit(_numeric_class(), "Isolated" if individual else "Contiguous")


def whitespace_split() -> CharClassSplit:
    """``WhitespaceSplit``: words between whitespace (Rust's ``char::is_whitespace``), spaces dropped."""
    return CharClassSplit(_SPACE_CLASS, "Removed")


def char_delimiter(delimiter: str) -> CharClassSplit:
    """``CharDelimiterSplit``: words between one delimiter character, the delimiter dropped."""
    return CharClassSplit(regex.escape(delimiter), "Removed")


class Split(_Splitter):
    """``Split``: a string or Oniguruma regex pattern, any behaviour, optionally inverted."""

    def __init__(self, pattern: str, is_regex: bool, behavior: str, invert: bool) -> None:
        self.pattern = pattern
        self.behavior = behavior
        self.invert = invert
        self._rx = compile_onig(pattern if is_regex else regex.escape(pattern))
        self._tiles = behavior == "Isolated" and not invert and self._rx.groups == 0

    def matches(self, text: str) -> list[Piece]:
        return regex_matches(self._rx, text)

    def split_one(self, text: str) -> list[str]:
        if self._tiles:
            parts = run_pattern(self._rx, "findall", text)
            if all(parts) and sum(map(len, parts)) == len(text):
                return parts  # the matches tile the text: they are the Isolated pieces
        return super().split_one(text)


class Whitespace(_Splitter):
    r"""``Whitespace``: runs of word characters, and runs of other non-space characters (``\w+|[^\w\s]+``)."""

    behavior = "Removed"
    invert = True
    fast = regex.compile(r"\w+|[^\w\s]+")

    def matches(self, text: str) -> list[Piece]:
        assert self.fast is not None
        return regex_matches(self.fast, text, trusted=True)


class FixedLength(_Splitter):
    """``FixedLength``: chunks of ``length`` characters."""

    def __init__(self, length: int) -> None:
        self.length = length

    def split_one(self, text: str) -> list[str]:
        return [text[i : i + self.length] for i in range(0, len(text), self.length)]

    def matches(self, text: str) -> list[Piece]:
        return [(i, min(i + self.length, len(text)), False) for i in range(0, len(text), self.length)]


class BertPre:
    """``BertPreTokenizer``: whitespace removed, then each punctuation mark its own piece."""

    _stages = (whitespace_split(), punctuation("Isolated"))

    def split_fast(self, pieces: list[str], first_at_origin: bool) -> list[str]:
        out: list[str] = []
        for piece in pieces:
            out += bert_words(piece)
        return out

    def split_aligned(self, pieces: list[NormalizedString], original: str) -> list[NormalizedString]:
        for stage in self._stages:
            pieces = stage.split_aligned(pieces, original)
        return pieces


class ByteLevel:
    """``ByteLevel``: optional leading space, optional GPT-2 regex split, then bytes as characters.

    ``map_bytes=False`` on the fast path leaves pieces as text for a model that reads their UTF-8
    bytes itself (the same symbols, without building the GPT-2 strings).
    """

    def __init__(self, add_prefix_space: bool, use_regex: bool, trim_offsets: bool) -> None:
        self.add_prefix_space = add_prefix_space
        self.use_regex = use_regex
        self.trim_offsets = trim_offsets
        self._split = Split(HF_GPT2_PATTERN, True, "Isolated", False) if use_regex else None

    def split_fast(self, pieces: list[str], first_at_origin: bool, map_bytes: bool = True) -> list[str]:
        if self.add_prefix_space:
            pieces = [p if p.startswith(" ") else " " + p for p in pieces]
        if self._split is not None:
            pieces = self._split.split_fast(pieces, first_at_origin)
        if not map_bytes:
            return pieces
        return [bytes_to_token_str(p.encode("utf-8", "surrogatepass")) for p in pieces]

    def split_aligned(self, pieces: list[NormalizedString], original: str) -> list[NormalizedString]:
        if self.add_prefix_space:
            for ns in pieces:
                if not ns.text.startswith(" "):
                    ns.prepend(" ")
        if self._split is not None:
            pieces = self._split.split_aligned(pieces, original)
        for ns in pieces:
            ns.to_bytes_chars(BYTE_CHARS.__getitem__, original)
        return pieces


class Metaspace:
    """``Metaspace``: spaces become ``replacement``, one is prepended (by scheme), split before each."""

    def __init__(self, replacement: str, prepend_scheme: str, split: bool) -> None:
        self.replacement = replacement
        self.prepend_scheme = prepend_scheme
        self.split = split
        self._cut = CharClassSplit(regex.escape(replacement), "MergedWithNext")

    def _prepends(self, text: str, at_origin: bool) -> bool:
        if self.prepend_scheme == "never" or text.startswith(self.replacement):
            return False
        return self.prepend_scheme == "always" or at_origin

    def split_fast(self, pieces: list[str], first_at_origin: bool) -> list[str]:
        out: list[str] = []
        rep = self.replacement
        for k, piece in enumerate(pieces):
            piece = piece.replace(" ", rep)
            if self._prepends(piece, first_at_origin and k == 0):
                piece = rep + piece
            out += self._cut.split_one(piece) if self.split else [piece]
        return out

    def split_aligned(self, pieces: list[NormalizedString], original: str) -> list[NormalizedString]:
        for ns in pieces:
            ns.replace([(m.start(), m.end()) for m in re.finditer(" ", ns.text)], self.replacement)
            if self._prepends(ns.text, ns.start == 0):
                ns.prepend(self.replacement)
        return self._cut.split_aligned(pieces, original) if self.split else pieces


class SequencePre:
    """``Sequence``: stages in order, each on the pieces of the one before."""

    def __init__(self, stages: Sequence[PreTokenizerStage]) -> None:
        self.stages = list(stages)

    def split_fast(self, pieces: list[str], first_at_origin: bool) -> list[str]:
        for stage in self.stages:
            pieces = stage.split_fast(pieces, first_at_origin)
        return pieces

    def split_aligned(self, pieces: list[NormalizedString], original: str) -> list[NormalizedString]:
        for stage in self.stages:
            pieces = stage.split_aligned(pieces, original)
        return pieces
