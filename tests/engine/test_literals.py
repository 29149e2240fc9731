"""The one automaton for special tokens, added tokens and user-defined symbols gives exactly the
matches of the regex alternation it replaced (longest first: leftmost-longest), on any text --
lone surrogates and astral characters included -- and SentencePiece's anchored longest match."""

from __future__ import annotations

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.literals import Literals, literals_of

ALPHABET = st.sampled_from(["a", "b", "<", ">", "|", " ", "é", "한", "\U0001f600", "\udcff", "\n"])
LITERAL = st.text(ALPHABET, min_size=1, max_size=5)


def _alternation(literals: list[str]) -> regex.Pattern[str]:
    ordered = sorted(set(literals), key=lambda s: (-len(s), s))
    return regex.compile("|".join(regex.escape(s) for s in ordered))


@settings(max_examples=400, deadline=None)
@given(st.lists(LITERAL, min_size=1, max_size=8), st.text(ALPHABET, max_size=40))
def test_matches_equal_the_longest_first_alternation(literals: list[str], text: str) -> None:
    matcher = Literals(literals)
    expected = [(m.group(), m.start(), m.end()) for m in _alternation(literals).finditer(text)]
    assert [(matcher.literals[i], s, e) for i, s, e in matcher.find(text)] == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(LITERAL, min_size=1, max_size=8), st.text(ALPHABET, max_size=30))
def test_starts_is_the_longest_literal_anchored_at_each_position(literals: list[str], text: str) -> None:
    rx = _alternation(literals)
    matcher = Literals(literals)
    expected = {p: m.group() for p in range(len(text)) if (m := rx.match(text, p)) is not None}
    assert {p: matcher.literals[i] for p, i in matcher.starts(text).items()} == expected


def test_split_first_and_empty_literals() -> None:
    matcher = literals_of(("<|endoftext|>", "<|end|>", ""))
    assert matcher.literals == ("<|endoftext|>", "<|end|>")
    assert matcher.split("a<|end|><|endoftext|>b") == [("a", False), ("<|end|>", True), ("<|endoftext|>", True), ("b", False)]
    assert matcher.first("x <|endoftext|> <|end|>") == "<|endoftext|>"
    assert not Literals([""]) and Literals([""]).split("ab") == [("ab", False)]
