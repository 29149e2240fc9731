"""The NFC stage's alignment: normalized text equal to ``unicodedata``'s, spans mapped back exactly.

``align`` cuts a text into chunks NFC treats independently; the check here is that the cut is
never wrong (the normalized chunks join to NFC of the whole text, without falling back to one
chunk) and that mapping every normalized character back gives source slices whose NFC is exactly
those characters.
"""

from __future__ import annotations

import doctest
import importlib
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.core.normalizer import _chunked, align

# Starters and marks that compose, reorder or get rewritten: Latin + combining accents of several
# classes, Hangul jamo (L, V, T), Tamil/Bengali two-part vowels, Tibetan U+0F73 (excluded, decomposes
# to two marks), singletons (Angstrom and Ohm signs, CJK compatibility ideographs), surrogates.
PIECES = [
    "a", "e", "A", "o", " ", "\n", "x", "\u0301", "\u0300", "\u0316", "\u0328", "\u0338", "\u0345", "\u1100",
    "\u1161", "\u11a8", "\uac00", "\u0bc6", "\u0bbe", "\u09c7", "\u09be", "\u0f71", "\u0f72", "\u0f73", "\u0f80",
    "\u212b", "\u2126", "\uf900", "\U0002f800", "\U0001d15e", "<", ">", "=", "é", "한", "\ud83d", "\ude00", "\udc00",
]  # fmt: skip
texts = st.lists(st.sampled_from(PIECES), max_size=24).map("".join)


@pytest.mark.parametrize("module", ["core.normalizer", "formats.llama", "formats.qwen"])
def test_module_doctests(module: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(f"bpe_engine.{module}"), verbose=False)
    assert tried > 0 and failures == 0


def fix(text: str) -> str:
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


@settings(max_examples=400)
@given(text=texts)
def test_normalized_text_is_nfc_and_every_character_maps_back(text: str) -> None:
    aligned = align(text, fix)
    if aligned is None:
        assert unicodedata.is_normalized("NFC", text)
        return
    assert aligned.source == fix(text)
    assert aligned.normalized == fix(unicodedata.normalize("NFC", text))
    assert _chunked(text, fix, "NFC") == aligned  # the chunk rules held: no one-chunk fallback
    raw = aligned.source.encode("utf-8")
    spans, at = [], 0
    for ch in aligned.normalized:
        width = len(ch.encode("utf-8"))
        spans.append((at, at + width))
        at += width
    mapped = aligned.spans_in_source(spans)
    assert mapped[0][0] == 0 and mapped[-1][1] == len(raw)
    assert all(a[1] == b[0] for a, b in zip(mapped, mapped[1:]))  # contiguous, in order
    group = ""
    for ch, (start, end) in zip(aligned.normalized, mapped):
        group += ch
        if start != end:  # the last character reaching into a rewritten chunk takes it whole
            assert unicodedata.normalize("NFC", raw[start:end].decode("utf-8")) == group
            group = ""
    assert group == ""


def test_separate_rewrites_are_separate_chunks() -> None:
    aligned = align("e\u0301 and a\u0300, \u212b", None)
    assert aligned is not None and aligned.normalized == "é and à, Å"
    assert aligned._changed.count(True) == 3  # noqa: SLF001
    assert aligned.spans_in_source([(0, 2), (2, 7)]) == [(0, 3), (3, 8)]


def test_text_already_in_nfc_is_left_alone() -> None:
    assert align("plain, 한국어, é", None) is None
