"""Does a pre-tokenizer fit the corpus's scripts? Find the scripts whose words it cuts apart.

GPT-2's regex (and cl100k's) match letters with ``\\p{L}+``, which leaves out combining marks
(``\\p{M}``): Devanagari's vowel signs and viramas, Thai's vowels and tone marks, Bengali, Tamil,
Myanmar... So ``मानव`` is cut into ``म`` ``ा`` ``नव`` before any merge can see it, and no vocabulary
size mends that: a BPE trained so gives Hindi 2.81 times English's tokens where o200k's regex,
which keeps ``\\p{M}`` inside words, gives 1.41. :func:`cut_scripts` counts, per script, the marks
that a pattern cuts off the letter before them, over a bounded sample of the text;
:func:`pattern_warning` words it for the Train form and ``train``: the scripts, how often, an
example, and the pattern that keeps them whole.

Bounded: at most :data:`SAMPLE_CHARS` characters are looked at, taken from the start, the middle and
the end of the text, so a 2 GB corpus is judged in milliseconds and a script that only appears
late is still seen.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import regex

from .core.block_text import Text
from .display import visible_text
from .pretokenizers import PreTokenizer
from .unicode_scripts import script_name_of

SAMPLE_CHARS = 300_000
"""Characters of the corpus looked at (three slices of a third each)."""
MIN_CUTS = 10
"""A script is named only when the sample shows at least this many cut marks..."""
MIN_SHARE = 0.05
"""...and they are at least this share of its marks (a stray accent in English is no problem)."""
_MARK_IN_WORD = regex.compile(r"(?<=[\p{L}\p{N}\p{M}])\p{M}")
"""A combining mark right after a letter, digit or mark: inside a word, where a cut hurts."""
EXAMPLE_PIECES = 5
"""Pieces of the example word shown (the cut one in the middle)."""
KEEPS_MARKS = "o200k"
"""The built-in pattern that keeps marks inside words (the multilingual preset's)."""


@dataclass(frozen=True)
class ScriptCut:
    """A script whose words the pattern cuts: how many of its ``marks`` were cut off (``cuts``),
    and one word as the pattern cuts it (``example``: the pieces, marks shown on a dotted circle)."""

    script: str
    cuts: int
    marks: int
    example: tuple[str, ...]

    @property
    def share(self) -> float:
        return self.cuts / self.marks if self.marks else 0.0


def cut_scripts(pre: PreTokenizer, text: Text) -> list[ScriptCut]:
    """The scripts of ``text`` whose combining marks ``pre`` cuts off their letters, most cuts first."""
    cuts: Counter[str] = Counter()
    marks: Counter[str] = Counter()
    examples: dict[str, tuple[str, ...]] = {}
    for sample in _samples(text):
        pieces = pre.pieces(sample)
        starts = {start for _, start, _ in pieces}
        for match in _MARK_IN_WORD.finditer(sample):
            index = match.start()
            script = _script(sample, index)
            marks[script] += 1
            if index in starts:
                cuts[script] += 1
                if script not in examples:
                    examples[script] = _word_pieces(sample, index, pieces)
    found = [ScriptCut(s, n, marks[s], examples[s]) for s, n in cuts.items() if n >= MIN_CUTS and n >= MIN_SHARE * marks[s]]
    return sorted(found, key=lambda c: (-c.cuts, c.script))


def pattern_warning(pre: PreTokenizer, text: Text) -> str | None:
    """One sentence for the user when ``pre`` cuts the words of a script in ``text`` (else None)."""
    found = cut_scripts(pre, text)
    if not found:
        return None
    names = ", ".join(f"{c.script} ({c.cuts:,} of {c.marks:,} marks, e.g. {' '.join(c.example)})" for c in found[:3])
    fix = (
        f"the {KEEPS_MARKS} pre-tokenizer (the multilingual preset) keeps them whole"
        if pre.name != KEEPS_MARKS
        else "a pattern that matches \\p{M} with the letters keeps them whole"
    )
    return (
        f"the {pre.name} pre-tokenizer cuts vowel signs and other marks off their letters in {names}: "
        f"no merge can join them again; {fix}"
    )


def _samples(text: Text) -> Sequence[str]:
    if len(text) <= SAMPLE_CHARS:
        return [text[:]]
    third = SAMPLE_CHARS // 3
    middle = (len(text) - third) // 2
    return [text[:third], text[middle : middle + third], text[-third:]]


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def _script(text: str, index: int) -> str:
    """The script of the mark at ``index``: its own, or (an inherited mark such as U+0301) its letter's."""
    for j in range(index, max(index - 64, -1), -1):
        name = script_name_of(ord(text[j]))
        if name not in ("Inherited", "Common"):
            return name.replace("_", " ")
    return "Common"


def _word_pieces(text: str, index: int, pieces: list[tuple[str, int, int]]) -> tuple[str, ...]:
    """The pieces of the word around ``index`` (letters and marks), as the pattern cut them."""
    start = index
    while start > 0 and (text[start - 1].isalnum() or _is_mark(text[start - 1])):
        start -= 1
    end = index
    while end < len(text) and (text[end].isalnum() or _is_mark(text[end])):
        end += 1
    cut = [(max(s, start), min(e, end)) for _, s, e in pieces if s < end and e > start]
    at = next(k for k, (s, _) in enumerate(cut) if s == index)
    shown = cut[max(0, at - EXAMPLE_PIECES // 2) : at + EXAMPLE_PIECES // 2 + 1]  # a word of Thai runs on: show its middle
    return tuple(visible_text(("\u25cc" if _is_mark(text[s]) else "") + text[s:e]) for s, e in shown)


__all__ = ["KEEPS_MARKS", "MIN_CUTS", "MIN_SHARE", "SAMPLE_CHARS", "ScriptCut", "cut_scripts", "pattern_warning"]
