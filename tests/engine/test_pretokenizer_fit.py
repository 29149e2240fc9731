"""A pre-tokenizer that cuts a script's words is named: GPT-2's and cl100k's regexes cut Devanagari,
Bengali, Tamil, Thai and Myanmar vowel signs (and decomposed Vietnamese accents) off their letters,
o200k's keeps them; English, French, Korean and Japanese draw no warning, nor does a stray accent; a
script that only appears late in a long corpus is still seen."""

from __future__ import annotations

import pytest

from bpe_engine.metrics.languages import find
from bpe_engine.pretokenizer_fit import MIN_CUTS, SAMPLE_CHARS, cut_scripts, pattern_warning
from bpe_engine.pretokenizers import get_pretokenizer


def udhr(code: str) -> str:
    return "\n".join(text for _, text in find(code)[0].parts)


@pytest.mark.parametrize(
    ("code", "script"),
    [("hin", "Devanagari"), ("ben", "Bengali"), ("tam", "Tamil"), ("tha", "Thai"), ("mya", "Myanmar"), ("vie", "Latin")],
)
def test_gpt2_and_cl100k_cut_these_scripts_and_o200k_does_not(code: str, script: str) -> None:
    text = udhr(code)
    for name in ("gpt2", "cl100k"):
        found = cut_scripts(get_pretokenizer(name), text)
        assert [c.script for c in found] == [script] and found[0].share > 0.5, (name, found)
    assert cut_scripts(get_pretokenizer("o200k"), text) == []


def test_the_warning_names_the_script_an_example_and_the_fix() -> None:
    warning = pattern_warning(get_pretokenizer("gpt2"), udhr("hin"))
    assert warning is not None
    assert "the gpt2 pre-tokenizer cuts vowel signs and other marks off their letters in Devanagari (3,150 of 3,307 marks" in warning
    assert "e.g. प ◌् रस ◌्" in warning and "the o200k pre-tokenizer (the multilingual preset) keeps them whole" in warning
    assert pattern_warning(get_pretokenizer("o200k"), udhr("hin")) is None


@pytest.mark.parametrize("code", ["eng", "fra", "kor", "jpn", "rus"])
def test_scripts_without_combining_marks_in_words_draw_no_warning(code: str) -> None:
    assert pattern_warning(get_pretokenizer("gpt2"), udhr(code)) is None


def test_a_few_stray_accents_are_not_a_problem(alice_text: str) -> None:
    text = alice_text + " cafe\u0301" * (MIN_CUTS - 1)
    assert cut_scripts(get_pretokenizer("gpt2"), text) == []
    assert [c.script for c in cut_scripts(get_pretokenizer("gpt2"), text + " cafe\u0301")] == ["Latin"]


def test_a_script_that_appears_late_in_a_long_corpus_is_seen(alice_text: str) -> None:
    english = alice_text * (3 * SAMPLE_CHARS // len(alice_text) + 1)
    found = cut_scripts(get_pretokenizer("gpt2"), english + udhr("hin"))
    assert [c.script for c in found] == ["Devanagari"] and found[0].marks == 3_307  # the last slice holds all of it
