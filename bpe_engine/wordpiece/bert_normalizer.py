"""BERT's normaliser, with an alignment map back to the original text.

Four steps, in Hugging Face's order (``tokenizers/src/normalizers/bert.rs``):

1. *clean text*: drop NUL, U+FFFD and "control" characters (general categories Cc, Cf, Co --
   unassigned code points are kept, as in HF), and turn every whitespace character into a space;
   tab, newline and carriage return count as whitespace, not control;
2. *CJK ideographs*: put a space on each side of every CJK Unified Ideograph, so each becomes a
   word of its own;
3. *strip accents* (on by default when lowercasing): NFD, then drop non-spacing marks (Mn).
   This is why uncased BERT turns ``한`` into the three jamo ``ᄒ ᅡ ᆫ``: NFD decomposes Hangul;
4. *lowercase*, character by character (so a lone ``Σ`` is ``σ``, never the final ``ς``).

The inspector needs each token's span in the *original* text, and steps 1-4 change lengths, so
:meth:`BertNormalizer.normalize_aligned` also returns, for each normalised character, the index
of the original character it came from.

>>> BertNormalizer().normalize("Héllo\\tWORLD")
'hello world'
>>> BertNormalizer().normalize_aligned("Ça")
('ca', [0, 1])
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ..memo import Memo, char_table
from .unicode_tables import EXTRA_MN, LOWERCASE, NO_DECOMPOSITION, NOT_CONTROL, NOT_MN

# Rust's char::is_whitespace (the Unicode White_Space property). Python's str.isspace() differs
# (it counts U+001C..U+001F), so the set is spelled out.
WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000"
)
_CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs"})

# The CJK blocks BERT isolates (same ranges as the original BERT and HF).
_CJK_RANGES = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B920, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)


def is_bert_whitespace(ch: str) -> bool:
    """Whitespace as BERT means it (Unicode White_Space; tab/newline/CR included)."""
    return ch in WHITE_SPACE


def is_bert_control(ch: str) -> bool:
    """Characters clean-text removes: Cc/Cf/Co, except tab, newline and CR (those are spaces)."""
    if ch in "\t\n\r" or ch in NOT_CONTROL:
        return False
    return unicodedata.category(ch) in _CONTROL_CATEGORIES


def is_nonspacing_mark(ch: str) -> bool:
    """General category Mn, as HF's tables have it (see :mod:`.unicode_tables`)."""
    if ch in NOT_MN:
        return False
    return ch in EXTRA_MN or unicodedata.category(ch) == "Mn"


def lower_char(ch: str) -> str:
    """One character lowercased like Rust's ``char::to_lowercase`` (no final-sigma context)."""
    return LOWERCASE.get(ch) or ch.lower()


def is_cjk_ideograph(ch: str) -> bool:
    """True for characters in the CJK Unified Ideograph blocks BERT splits off."""
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _CJK_RANGES)


@dataclass(frozen=True, slots=True)
class BertNormalizer:
    """HF's ``BertNormalizer``; ``strip_accents=None`` means "same as ``lowercase``"."""

    clean_text: bool = True
    handle_chinese_chars: bool = True
    strip_accents: bool | None = None
    lowercase: bool = True

    @property
    def strips_accents(self) -> bool:
        return self.lowercase if self.strip_accents is None else self.strip_accents

    def normalize(self, text: str) -> str:
        """The normalised text (no alignment; the fast path used for training)."""
        if text.isascii():
            return self._normalize_ascii(text)
        table, risky = self._table()
        out = text.translate(table)
        if risky and not risky.isdisjoint(text):
            return self._careful_aligned(text)[0]
        return out

    def normalize_aligned(self, text: str) -> tuple[str, list[int]]:
        """The normalised text and, per normalised character, its original character index."""
        if text.isascii():
            return self._ascii_aligned(text)
        table, risky = self._table()
        out = text.translate(table)
        if risky and not risky.isdisjoint(text):
            return self._careful_aligned(text)
        if len(out) == len(text) and all(len(table[ord(c)]) == 1 for c in text):
            return out, list(range(len(text)))
        align = [i for i, c in enumerate(text) for _ in range(len(table[ord(c)]))]
        return out, align

    # -- private ---------------------------------------------------------------------------------
    def _table(self) -> tuple[Memo[int, str], set[str]]:
        return _char_table(self.clean_text, self.handle_chinese_chars, self.strips_accents, self.lowercase)

    def _careful_aligned(self, text: str) -> tuple[str, list[int]]:
        """Whole-text path, for text where NFD's canonical reordering can move a surviving mark."""
        strip = self.strips_accents
        chars: list[str] = []
        align: list[int] = []
        for i, ch in enumerate(text):
            piece = _char_front(ch, self.clean_text, self.handle_chinese_chars, strip)
            chars.extend(piece)
            align.extend([i] * len(piece))
        if strip:
            _canonical_reorder(chars, align)
            kept = [k for k, c in enumerate(chars) if not is_nonspacing_mark(c)]
            chars = [chars[k] for k in kept]
            align = [align[k] for k in kept]
        if self.lowercase:
            out_chars: list[str] = []
            out_align: list[int] = []
            for c, a in zip(chars, align):
                low = lower_char(c)
                out_chars.extend(low)
                out_align.extend([a] * len(low))
            chars, align = out_chars, out_align
        return "".join(chars), align

    def _normalize_ascii(self, text: str) -> str:
        if self.clean_text:
            text = text.translate(_ASCII_CLEAN)
        return text.lower() if self.lowercase else text

    def _ascii_aligned(self, text: str) -> tuple[str, list[int]]:
        out = self._normalize_ascii(text)
        if len(out) == len(text):
            return out, list(range(len(text)))
        align = [i for i, ch in enumerate(text) if not (self.clean_text and is_bert_control(ch))]
        return out, align


# ASCII clean-text as one translate table: controls removed, tab/newline/CR (and the other ASCII
# White_Space characters, which are controls and so removed first) handled like HF.
_ASCII_CLEAN: dict[int, str | None] = {}
for _cp in range(128):
    _ch = chr(_cp)
    if _cp == 0 or is_bert_control(_ch):
        _ASCII_CLEAN[_cp] = None
    elif is_bert_whitespace(_ch) and _ch != " ":
        _ASCII_CLEAN[_cp] = " "


@lru_cache(maxsize=16)
def _char_table(clean: bool, cjk: bool, strip: bool, lower: bool) -> tuple[Memo[int, str], set[str]]:
    """Code point -> the normalised output of that one character, and the ``risky`` characters met.

    All four steps act on one character at a time except NFD's canonical reordering of combining
    marks; so ``str.translate`` with this table *is* the normaliser, unless a character whose
    output keeps a combining mark (``risky``, added as the table fills) occurs -- then the careful
    whole-text path runs.
    """
    risky: set[str] = set()

    def rule(ch: str) -> str:
        out = _char_front(ch, clean, cjk, strip)
        if strip:
            out = "".join(c for c in out if not is_nonspacing_mark(c))
            if _has_combining(out):
                risky.add(ch)
        if lower:
            out = "".join(lower_char(c) for c in out)
        return out

    return char_table(rule), risky


@lru_cache(maxsize=65536)
def _char_front(ch: str, clean: bool, cjk: bool, strip: bool) -> str:
    """Steps 1-2 and the NFD half of step 3 for one character (cached: text repeats characters)."""
    if clean:
        if ch == "\0" or ch == "\ufffd" or is_bert_control(ch):
            return ""
        if ch in WHITE_SPACE:
            return " "
    out = unicodedata.normalize("NFD", ch) if strip and ch not in NO_DECOMPOSITION else ch
    # NFD maps CJK compatibility ideographs (U+F900..) to unified ones: isolate whatever it gives.
    return f" {out} " if cjk and is_cjk_ideograph(ch) else out


@lru_cache(maxsize=65536)
def _has_combining(piece: str) -> bool:
    return any(unicodedata.combining(c) for c in piece)


def _canonical_reorder(chars: list[str], align: list[int]) -> None:
    """NFD's canonical ordering across character boundaries: stable-sort each run of combining
    marks by combining class, carrying the alignment along (per-character NFD cannot see runs
    that span several original characters)."""
    n = len(chars)
    k = 0
    while k < n:
        if unicodedata.combining(chars[k]) == 0:
            k += 1
            continue
        end = k
        while end < n and unicodedata.combining(chars[end]) != 0:
            end += 1
        if end - k > 1:
            run = sorted(zip(chars[k:end], align[k:end]), key=lambda p: unicodedata.combining(p[0]))
            chars[k:end] = [c for c, _ in run]
            align[k:end] = [a for _, a in run]
        k = end
