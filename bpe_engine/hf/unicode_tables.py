"""Where Hugging Face's Unicode knowledge and Python's ``unicodedata`` (Unicode 14.0) disagree.

HF ``tokenizers`` normalises with the ``unicode-normalization-alignments`` crate, whose tables are
Unicode 9.0: characters assigned later have no decomposition, combining class 0 and are not marks
there. Its ``Digits`` pre-tokenizer uses Rust's ``char::is_numeric``, which is *newer* than Python's
database. For ids identical to HF on any text, the HF pipeline takes Python's answer except at the
code points below, where it takes HF's. The tables were produced by probing every code point
through ``tokenizers`` (0.23: ``normalizers.NFD/NFKD/StripAccents``,
``pre_tokenizers.Digits``); ``tests/test_hf_unicode_tables.py`` re-derives them (slow marker), so a
``tokenizers`` upgrade that changes them fails loudly.

BERT's own predicates (punctuation, control, non-spacing mark, lowercase) live in
:mod:`bpe_engine.wordpiece.unicode_tables`; HF's ``Lowercase`` is the same Rust function as BERT's.
"""

from __future__ import annotations

import unicodedata

import regex

from ..wordpiece.unicode_tables import expand_ranges

# HF leaves these unchanged under NFD/NFC (no canonical decomposition in Unicode 9).
NO_CANONICAL_DECOMPOSITION: tuple[tuple[int, int], ...] = ((0x11938, 0x11938),)

# HF leaves these unchanged under NFKD/NFKC.
NO_COMPAT_DECOMPOSITION: tuple[tuple[int, int], ...] = (
    (0x32FF, 0x32FF), (0xA7F2, 0xA7F4), (0xAB69, 0xAB69), (0x10781, 0x10785), (0x10787, 0x107B0),
    (0x107B2, 0x107BA), (0x11938, 0x11938), (0x1F16C, 0x1F16C), (0x1FBF0, 0x1FBF9),
)

# Python gives these a non-zero canonical combining class; HF gives 0 (so NFD does not reorder them).
NOT_COMBINING: tuple[tuple[int, int], ...] = (
    (0x07FD, 0x07FD), (0x0898, 0x089F), (0x08CA, 0x08D3), (0x09FE, 0x09FE), (0x0C3C, 0x0C3C),
    (0x0D3B, 0x0D3C), (0x0EBA, 0x0EBA), (0x1715, 0x1715), (0x1ABF, 0x1ACE), (0x1DF6, 0x1DFA),
    (0xA82C, 0xA82C), (0x10D24, 0x10D27), (0x10EAB, 0x10EAC), (0x10F46, 0x10F50),
    (0x10F82, 0x10F85), (0x11070, 0x11070), (0x1133B, 0x1133B), (0x1145E, 0x1145E),
    (0x11839, 0x1183A), (0x1193D, 0x1193E), (0x11943, 0x11943), (0x119E0, 0x119E0),
    (0x11A34, 0x11A34), (0x11A47, 0x11A47), (0x11A99, 0x11A99), (0x11D42, 0x11D42),
    (0x11D44, 0x11D45), (0x11D97, 0x11D97), (0x16FF0, 0x16FF1), (0x1E130, 0x1E136),
    (0x1E2AE, 0x1E2AE), (0x1E2EC, 0x1E2EF),
)

# StripAccents removes "combining marks" (general category M, Unicode 9 as HF has it).
EXTRA_MARK: tuple[tuple[int, int], ...] = ((0x1CF2, 0x1CF3),)
NOT_MARK: tuple[tuple[int, int], ...] = (
    (0x07FD, 0x07FD), (0x0898, 0x089F), (0x08CA, 0x08D3), (0x09FE, 0x09FE), (0x0AFA, 0x0AFF),
    (0x0B55, 0x0B55), (0x0C04, 0x0C04), (0x0C3C, 0x0C3C), (0x0D00, 0x0D00), (0x0D3B, 0x0D3C),
    (0x0D81, 0x0D81), (0x0EBA, 0x0EBA), (0x1715, 0x1715), (0x180F, 0x180F), (0x1ABF, 0x1ACE),
    (0x1CF7, 0x1CF7), (0x1DF6, 0x1DFA), (0xA82C, 0xA82C), (0xA8FF, 0xA8FF), (0x10D24, 0x10D27),
    (0x10EAB, 0x10EAC), (0x10F46, 0x10F50), (0x10F82, 0x10F85), (0x11070, 0x11070),
    (0x11073, 0x11074), (0x110C2, 0x110C2), (0x11145, 0x11146), (0x111C9, 0x111C9),
    (0x111CE, 0x111CF), (0x1133B, 0x1133B), (0x1145E, 0x1145E), (0x1182C, 0x1183A),
    (0x11930, 0x11935), (0x11937, 0x11938), (0x1193B, 0x1193E), (0x11940, 0x11940),
    (0x11942, 0x11943), (0x119D1, 0x119D7), (0x119DA, 0x119E0), (0x119E4, 0x119E4),
    (0x11A01, 0x11A0A), (0x11A33, 0x11A39), (0x11A3B, 0x11A3E), (0x11A47, 0x11A47),
    (0x11A51, 0x11A5B), (0x11A8A, 0x11A99), (0x11D31, 0x11D36), (0x11D3A, 0x11D3A),
    (0x11D3C, 0x11D3D), (0x11D3F, 0x11D45), (0x11D47, 0x11D47), (0x11D8A, 0x11D8E),
    (0x11D90, 0x11D91), (0x11D93, 0x11D97), (0x11EF3, 0x11EF6), (0x16F4F, 0x16F4F),
    (0x16F7F, 0x16F87), (0x16FE4, 0x16FE4), (0x16FF0, 0x16FF1), (0x1CF00, 0x1CF2D),
    (0x1CF30, 0x1CF46), (0x1E130, 0x1E136), (0x1E2AE, 0x1E2AE), (0x1E2EC, 0x1E2EF),
)

# Rust's char::is_numeric (general category Nd/Nl/No) knows these; Python 3.11 does not yet.
EXTRA_NUMERIC: tuple[tuple[int, int], ...] = (
    (0x10D40, 0x10D49), (0x116D0, 0x116E3), (0x11BF0, 0x11BF9), (0x11DE0, 0x11DE9),
    (0x11F50, 0x11F59), (0x16130, 0x16139), (0x16D70, 0x16D79), (0x16FF4, 0x16FF6),
    (0x1CCF0, 0x1CCF9), (0x1D2C0, 0x1D2D3), (0x1E4F0, 0x1E4F9), (0x1E5F1, 0x1E5FA),
)

_NO_CANONICAL = expand_ranges(NO_CANONICAL_DECOMPOSITION)
_NO_COMPAT = expand_ranges(NO_COMPAT_DECOMPOSITION)
_NOT_COMBINING = expand_ranges(NOT_COMBINING)
_EXTRA_MARK = expand_ranges(EXTRA_MARK)
_NOT_MARK = expand_ranges(NOT_MARK)
_EXTRA_NUMERIC = expand_ranges(EXTRA_NUMERIC)

# Any of these in a text sends the Unicode normalisers down the careful, character-by-character
# path; without them ``unicodedata.normalize`` gives exactly HF's result (normalization stability:
# decompositions and combining classes of assigned characters never change). The parts of a
# composite HF does not know are included: Python would compose them, HF does not.
_PARTS_OF_UNKNOWN = frozenset("".join(unicodedata.normalize("NFD", c) for c in _NO_CANONICAL))
_VERSION_SENSITIVE = regex.compile(
    "[" + "".join(regex.escape(c) for c in sorted(_NO_COMPAT | _NOT_COMBINING | _PARTS_OF_UNKNOWN)) + "]"
)


def has_version_differences(text: str) -> bool:
    """True when ``text`` holds a character whose normalisation HF and Python see differently."""
    return _VERSION_SENSITIVE.search(text) is not None


def decompose(ch: str, compat: bool) -> str:
    """HF's full (canonical or compatibility) decomposition of one character."""
    if ch in (_NO_COMPAT if compat else _NO_CANONICAL):
        return ch
    return unicodedata.normalize("NFKD" if compat else "NFD", ch)


def combining_class(ch: str) -> int:
    """HF's canonical combining class (0 for the characters Unicode 9 did not have)."""
    return 0 if ch in _NOT_COMBINING else unicodedata.combining(ch)


def composes_to(composite: str) -> bool:
    """False for composites HF cannot form (their decomposition is unknown to Unicode 9)."""
    return composite not in _NO_CANONICAL


def is_combining_mark(ch: str) -> bool:
    """HF's ``is_combining_mark``: general category M as of Unicode 9 (StripAccents)."""
    if ch in _NOT_MARK:
        return False
    return ch in _EXTRA_MARK or unicodedata.category(ch)[0] == "M"


def is_numeric(ch: str) -> bool:
    """Rust's ``char::is_numeric`` (general categories Nd, Nl, No)."""
    return ch in _EXTRA_NUMERIC or unicodedata.category(ch) in ("Nd", "Nl", "No")
