"""Which script a text is written in, and which unit its fertility counts (words, characters, syllables).

Scripts are named by their ISO 15924 code (``Latn``, ``Hang``, ``Ethi``), the code BCP 47 tags and
FLORES-200's file names (``kor_Hang``) use. A text's script is the script most of its letters are in
(:mod:`bpe_engine.unicode_scripts`, SentencePiece's table); Han mixed with Hiragana or Katakana is
Japanese (``Jpan``).

"Tokens per word" means nothing where words are not separated by spaces: a Thai sentence is one
"word" to ``\\S+``. Fertility therefore counts the unit that fits the script, as tokka-bench does
(``src/tokka_bench/metrics.py``): characters for Han, Japanese, Thai, Lao, Khmer, Burmese (and Ol
Chiki, Tai Tham, which tokka-bench lists too); syllables -- the stretches between tsheg marks -- for
Tibetan; whitespace-separated words for every other script.

>>> text_script("모든 인간은 태어날 때부터 자유로우며"), text_script("すべての人間は、生まれながらにして自由"), text_script("")
('Hang', 'Jpan', 'Zyyy')
>>> unit_kind("Thai"), unit_kind("Tibt"), unit_kind("Hang")
('character', 'syllable', 'word')
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from ...unicode_scripts import script_ids, script_table

UnitKind = Literal["word", "character", "syllable"]

# Unicode script name (SentencePiece's table) -> ISO 15924 code.
ISO_15924: dict[str, str] = {
    "Adlam": "Adlm", "Arabic": "Arab", "Armenian": "Armn", "Balinese": "Bali", "Bamum": "Bamu",
    "Batak": "Batk", "Bengali": "Beng", "Bopomofo": "Bopo", "Braille": "Brai", "Buginese": "Bugi",
    "Canadian_Aboriginal": "Cans", "Chakma": "Cakm", "Cham": "Cham", "Cherokee": "Cher", "Coptic": "Copt",
    "Cyrillic": "Cyrl", "Devanagari": "Deva", "Ethiopic": "Ethi", "Georgian": "Geor", "Glagolitic": "Glag",
    "Gothic": "Goth", "Grantha": "Gran", "Greek": "Grek", "Gujarati": "Gujr", "Gurmukhi": "Guru",
    "Han": "Hani", "Hangul": "Hang", "Hebrew": "Hebr", "Hiragana": "Hira", "Javanese": "Java",
    "Kannada": "Knda", "Katakana": "Kana", "Kayah_Li": "Kali", "Khmer": "Khmr", "Lao": "Laoo",
    "Latin": "Latn", "Lepcha": "Lepc", "Limbu": "Limb", "Lisu": "Lisu", "Malayalam": "Mlym",
    "Meetei_Mayek": "Mtei", "Mende_Kikakui": "Mend", "Miao": "Plrd", "Mongolian": "Mong",
    "Myanmar": "Mymr", "New_Tai_Lue": "Talu", "Nko": "Nkoo", "Ogham": "Ogam", "Ol_Chiki": "Olck",
    "Oriya": "Orya", "Osage": "Osge", "Runic": "Runr", "Samaritan": "Samr", "Saurashtra": "Saur",
    "Sinhala": "Sinh", "Sundanese": "Sund", "Syriac": "Syrc", "Tagalog": "Tglg", "Tai_Le": "Tale",
    "Tai_Tham": "Lana", "Tai_Viet": "Tavt", "Tamil": "Taml", "Telugu": "Telu", "Thaana": "Thaa",
    "Thai": "Thai", "Tibetan": "Tibt", "Tifinagh": "Tfng", "Vai": "Vaii", "Yi": "Yiii",
}  # fmt: skip

SCRIPT_NAMES: dict[str, str] = {code: name.replace("_", " ") for name, code in ISO_15924.items()}
SCRIPT_NAMES.update({"Jpan": "Japanese", "Hans": "Han (Simplified)", "Hant": "Han (Traditional)", "Kore": "Korean", "Zyyy": "none"})

CHARACTER_SCRIPTS = frozenset({"Hani", "Hans", "Hant", "Jpan", "Hira", "Kana", "Thai", "Laoo", "Khmr", "Mymr", "Olck", "Lana"})
"""Scripts written without spaces between words: fertility counts characters (tokka-bench's list)."""
SYLLABLE_SCRIPTS = frozenset({"Tibt"})
"""Scripts whose syllables are marked (Tibetan's tsheg ``་``): fertility counts syllables."""
UNDETERMINED = "Zyyy"
"""ISO 15924's code for "no script" (a text without letters)."""

_KANA_SHARE = 0.1
"""Japanese: Han with at least this share of Hiragana/Katakana among the letters."""


def text_script(text: str) -> str:
    """The ISO 15924 code of the script most of ``text``'s letters are in (see the module docstring)."""
    letters = np.array([ord(c) for c in text if c.isalpha()], dtype=np.int64)
    if not len(letters):
        return UNDETERMINED
    names = script_table()[3]
    counts = np.bincount(script_ids(letters), minlength=len(names))
    by_id = {i: name for name, i in names.items()}
    counts[names["Common"]] = counts[names["Inherited"]] = 0
    kana = counts[names["Hiragana"]] + counts[names["Katakana"]]
    if kana and (counts[names["Han"]] + kana) * _KANA_SHARE <= kana and counts[names["Han"]]:
        return "Jpan"
    top = int(np.argmax(counts))
    if not counts[top]:
        return UNDETERMINED
    name = by_id[top]
    return ISO_15924.get(name, name[:4].title())


def unit_kind(script: str) -> UnitKind:
    """The fertility unit of a script (ISO 15924 code)."""
    if script in CHARACTER_SCRIPTS:
        return "character"
    if script in SYLLABLE_SCRIPTS:
        return "syllable"
    return "word"


def script_name(script: str) -> str:
    """A reader's name for an ISO 15924 code (the code itself when we do not know it)."""
    return SCRIPT_NAMES.get(script, script)


__all__ = [
    "CHARACTER_SCRIPTS", "ISO_15924", "SCRIPT_NAMES", "SYLLABLE_SCRIPTS", "UNDETERMINED", "UnitKind",
    "script_name", "text_script", "unit_kind",
]  # fmt: skip
