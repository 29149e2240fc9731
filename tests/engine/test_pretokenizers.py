"""Pre-tokenizers: behaviour declared by the object, user regexes under a time budget."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.corpus import count_words
from bpe_engine.errors import ConfigError
from bpe_engine.pretokenizers import BUILTIN, END_OF_WORD, GPT2, PreTokenizer, custom, run_regex
from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining

CATASTROPHIC = r"(a|a)+$"


def test_run_regex_stops_catastrophic_backtracking_and_names_pattern_and_budget() -> None:
    start = time.monotonic()
    with pytest.raises(ConfigError, match=r"regex '\(a\|a\)\+\$' took longer than its time budget of 0\.1 s"):
        run_regex(CATASTROPHIC, "a" * 2_000 + "b", budget=0.1)
    assert time.monotonic() - start < 30  # without the budget this runs for hours


def test_run_regex_runs_iterators_to_the_end() -> None:
    assert [m.group() for m in run_regex(r"\w+", "a b", "finditer")] == ["a", "b"]
    assert run_regex(r"\w+", "a, b", "split") == ["", ", ", ""]


def test_training_on_a_catastrophic_user_regex_fails_cleanly() -> None:
    # This used to hang training on 2 KB of text.
    text = "a" * 2_000 + "b"
    with pytest.raises(ConfigError, match="time budget"):
        BpeTraining([text], BpeTrainerConfig(vocab_size=300, pre_tokenizer=custom(CATASTROPHIC)), workers=1)


def test_encoding_with_a_catastrophic_user_regex_fails_cleanly() -> None:
    tok = BpeTraining(["ab ab"], BpeTrainerConfig(vocab_size=258, pre_tokenizer=custom(CATASTROPHIC)), workers=1)
    with pytest.raises(ConfigError, match="time budget"):
        tok.tokenizer().encode("a" * 2_000 + "b")


def test_behaviour_is_declared_not_switched_on_the_name() -> None:
    # A user pattern keeps the text between matches whatever the object is called (it used to
    # depend on the name being exactly "regex"), and a renamed built-in still cuts like itself.
    mine = PreTokenizer("mine", r"\w+")
    assert mine.split("a, b") == ["a", ", ", "b"]
    assert mine.keeps_unmatched and not mine.trusted and not mine.safe_to_cut
    renamed = replace(END_OF_WORD, name="words")
    assert renamed.split("low  lower") == ["low", "lower"]
    assert renamed.split_with_spans("low  lower") == [("low", 0, 3), ("lower", 5, 10)]
    assert [p for p, _, _ in renamed.pieces("low  lower")] == ["low", "  ", "lower"]
    counts = count_words(["low  lower " * 3], renamed, byte_level=False, workers=1)
    assert dict(counts.counts) == {"low": 3, "lower": 3}


def test_only_built_in_patterns_are_trusted() -> None:
    assert {name for name, pre in BUILTIN.items() if pre.trusted} == {
        "gpt2", "cl100k", "o200k", "hf-gpt2", "end-of-word", "end-of-word-separate"
    }
    assert not custom(r"\S+").trusted


texts = st.lists(st.sampled_from(list("ab1 \n\t'.é한") + ["  ", "'s", "\u3000", "▁"]), max_size=14).map("".join)


@settings(max_examples=150, deadline=None)
@given(text=texts, name=st.sampled_from([*sorted(BUILTIN), "regex"]))
def test_split_splitter_and_spans_agree(text: str, name: str) -> None:
    pre = custom(r"\w+|'s") if name == "regex" else BUILTIN[name]
    pieces = pre.split(text)
    assert pre.splitter()(text) == pieces
    spans = pre.split_with_spans(text)
    assert [p for p, _, _ in spans] == pieces
    if pre.space_marker is None and pre.end_of_word_suffix is None:
        assert all(text[s:e] == p for p, s, e in spans)
    if pre.keeps_unmatched or pre.pattern is None or pre is GPT2:
        assert "".join(text[s:e] for _, s, e in spans) == text
