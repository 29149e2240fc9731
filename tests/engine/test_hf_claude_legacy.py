"""``claude-legacy`` (the NFKC + byte-level BPE that older Anthropic SDKs shipped) equals Hugging Face
``tokenizers`` on the English and Korean test corpora and on hypothesis text: zero id mismatches."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from tokenizers import Tokenizer

from bpe_engine.hf import HfTokenizer
from bpe_engine.registry import load_tokenizer
from tests.hf_oracle import TRICKY, assert_parity, texts


@pytest.fixture(scope="module")
def pair(builtin_model_path) -> tuple[Tokenizer, HfTokenizer]:  # type: ignore[no-untyped-def]
    path = builtin_model_path("claude-legacy")
    ours = load_tokenizer("claude-legacy")
    assert isinstance(ours, HfTokenizer) and ours.vocab_size == 65_000
    return Tokenizer.from_file(str(path)), ours


def test_corpora_ids_equal_hf(pair: tuple[Tokenizer, HfTokenizer], alice_text: str, korean_text: str) -> None:
    hf, ours = pair
    for text in (alice_text, korean_text):
        expected = hf.encode(text).ids
        got = ours.encode(text, special_mode="special")
        assert sum(a != b for a, b in zip(got, expected)) + abs(len(got) - len(expected)) == 0
        assert ours.decode(got) == hf.decode(expected)


def test_offsets_and_special_tokens_equal_hf(pair: tuple[Tokenizer, HfTokenizer], alice_text: str, korean_text: str) -> None:
    hf, ours = pair
    for text in [*TRICKY, "<EOT><META>text<SOS>", alice_text[20000:22000], korean_text[5000:5800]]:
        assert_parity(hf, ours, text)


@settings(max_examples=80)
@given(texts)
def test_any_text_equals_hf(pair: tuple[Tokenizer, HfTokenizer], text: str) -> None:
    hf, ours = pair
    assert_parity(hf, ours, text)
