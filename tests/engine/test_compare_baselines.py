"""The characters and whitespace-words rows implement the Tokenizer protocol faithfully."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_engine.compare.baselines import CharacterTokenizer, WhitespaceWordTokenizer
from bpe_engine.errors import ConfigError
from bpe_engine.types import Tokenizer

any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


def test_both_satisfy_the_protocol() -> None:
    assert isinstance(CharacterTokenizer(), Tokenizer)
    assert isinstance(WhitespaceWordTokenizer(), Tokenizer)


@given(any_text)
def test_characters_round_trip_with_utf8_spans(text: str) -> None:
    tok = CharacterTokenizer()
    enc = tok.encode_detailed(text)
    assert tok.decode(enc.ids) == text
    raw = text.encode()
    assert [raw[s:e] for s, e in enc.byte_spans] == [tok.token_bytes(i) for i in enc.ids]


@given(any_text)
def test_words_are_split_and_spans_point_at_them(text: str) -> None:
    tok = WhitespaceWordTokenizer()
    enc = tok.encode_detailed(text)
    assert list(enc.tokens) == text.split()
    raw = text.encode()
    assert [raw[s:e].decode() for s, e in enc.byte_spans] == list(enc.tokens)
    assert tok.decode(enc.ids) == " ".join(text.split())


def test_word_ids_are_stable_and_vocab_grows() -> None:
    tok = WhitespaceWordTokenizer()
    assert tok.encode("a b a") == [0, 1, 0]
    assert tok.encode("c a") == [2, 0]
    assert tok.vocab_size == 3 and tok.token_str(2) == "c"
    with pytest.raises(ConfigError):
        tok.token_str(3)
    assert tok.decode([0, 99]) == "a \ufffd"


def test_characters_reject_ids_that_are_not_scalar_values() -> None:
    tok = CharacterTokenizer()
    assert tok.decode([0x48, 0xD800, -1, 0x110000]) == "H\ufffd\ufffd\ufffd"
    with pytest.raises(ConfigError, match="not a Unicode scalar value"):
        tok.decode([0xD800], errors="strict")


def test_lone_surrogates_become_replacement_characters() -> None:
    enc = CharacterTokenizer().encode_detailed("a\ud800")
    assert enc.text == "a\ufffd" and enc.ids == (97, 0xFFFD) and enc.byte_spans == ((0, 1), (1, 4))
    assert WhitespaceWordTokenizer().encode_detailed("x\udc00 y").tokens == ("x\ufffd", "y")
