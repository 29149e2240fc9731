"""The premium of a training corpus's languages after each merge step k: does Korean get cheaper as
merges are added, and which stretch of merges moved it?

The corpus's languages are read off its letters: every script holding at least
:data:`MIN_SCRIPT_SHARE` of them stands for the UDHR declaration of that script's most spoken
language (:data:`SCRIPT_LANGUAGE`: Hangul is Korean, Devanagari Hindi); Latin is the reference,
English, itself. For each, :func:`premium_curve` encodes that declaration and English's with the
model's first k merges at evenly spaced k (both counted on the articles both have, as
``languages`` counts them) -- what Compare's Curve view draws beside the compression curve.

>>> [d.code for d in corpus_languages("The law. 대한민국은 민주공화국이다. " * 3)]
['kor']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ...types import Tokenizer
from ...unicode_scripts import script_ids, script_table
from ..encoded import plain_ids
from .scripts import ISO_15924
from .udhr import ENGLISH, Declaration, find, shared_parts

MIN_SCRIPT_SHARE = 0.05
SAMPLE_CHARS = 1 << 20
"""Letters of the first MiB of the corpus decide its scripts (a 2 GB corpus is not read whole)."""
SCRIPT_LANGUAGE: dict[str, str] = {
    "Hang": "kor", "Hani": "cmn_hans", "Jpan": "jpn", "Cyrl": "rus", "Deva": "hin", "Arab": "arb", "Thai": "tha",
    "Ethi": "amh", "Grek": "ell_monotonic", "Hebr": "heb", "Beng": "ben", "Taml": "tam", "Geor": "kat", "Armn": "hye",
    "Mymr": "mya", "Khmr": "khm", "Tibt": "bod", "Telu": "tel", "Knda": "kan", "Mlym": "mal", "Gujr": "guj",
    "Guru": "pan", "Sinh": "sin", "Laoo": "lao",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class PremiumPoint:
    k: int
    tokens: int
    english_tokens: int

    @property
    def premium(self) -> float | None:
        return self.tokens / self.english_tokens if self.english_tokens else None


def corpus_languages(text: str) -> list[Declaration]:
    """The declarations standing for the corpus's scripts other than Latin, most letters first."""
    letters = np.array([ord(c) for c in text[:SAMPLE_CHARS] if c.isalpha()], dtype=np.int64)
    if not len(letters):
        return []
    names = script_table()[3]
    counts = np.bincount(script_ids(letters), minlength=len(names))
    by_id = {i: name for name, i in names.items()}
    kana = counts[names["Hiragana"]] + counts[names["Katakana"]]
    counts[names["Han"]] += kana  # Han with kana is Japanese, counted as one script
    found = []
    for i in np.argsort(-counts).tolist():
        if counts[i] < MIN_SCRIPT_SHARE * len(letters):
            break
        code = "Jpan" if by_id[i] == "Han" and kana > 0.1 * counts[i] else ISO_15924.get(by_id[i], "")
        if code in SCRIPT_LANGUAGE:
            found.append(find(SCRIPT_LANGUAGE[code])[0])
    return found


def steps_to_measure(n_merges: int, points: int) -> list[int]:
    """``points`` merge counts from 0 to ``n_merges``, evenly spaced (each once)."""
    return sorted({round(n_merges * i / max(points - 1, 1)) for i in range(points)})


def premium_curve(
    tokenizer_at: Callable[[int], Tokenizer], n_merges: int, language: Declaration, *, points: int = 16
) -> list[PremiumPoint]:
    """``language``'s tokens against English's with the model's first k merges, at ``points`` k."""
    english = find(ENGLISH)[0]
    numbers = shared_parts(english, language)
    out = []
    for k in steps_to_measure(n_merges, points):
        tok = tokenizer_at(k)
        out.append(PremiumPoint(k, _count(tok, language, numbers), _count(tok, english, numbers)))
    return out


def _count(tok: Tokenizer, text: Declaration, numbers: Sequence[int]) -> int:
    return sum(len(plain_ids(tok, text.part(n))) for n in numbers)


def steepest_fall(curve: Sequence[PremiumPoint]) -> tuple[int, int, float] | None:
    """``(k from, k to, premium lost)``: the stretch of merges between two points that moved the
    premium most, or None for a curve without a fall."""
    best = None
    for a, b in zip(curve, curve[1:], strict=False):
        if a.premium is None or b.premium is None:
            continue
        drop = a.premium - b.premium
        if drop > 0 and (best is None or drop > best[2]):
            best = (a.k, b.k, drop)
    return best


__all__ = ["MIN_SCRIPT_SHARE", "SCRIPT_LANGUAGE", "PremiumPoint", "corpus_languages", "premium_curve", "steepest_fall", "steps_to_measure"]
