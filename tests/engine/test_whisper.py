"""Whisper (multilingual.tiktoken, the fetched built-in): ids equal tiktoken's, specials where Whisper has them.

The oracle is tiktoken built the way ``whisper/tokenizer.py`` (openai-whisper 20250625,
``get_encoding``) builds it -- its ranks including the empty token at 50256, its pattern, its
special tokens. The special ids are also checked against the values Whisper's decoding relies on
(sot 50258, en 50259, transcribe 50359, notimestamps 50363, the first timestamp 50364).
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.formats.whisper import LANGUAGE_CODES, load_whisper
from bpe_engine.registry import load_tokenizer
from tests.engine.test_encode_parity import FRAGMENTS
from tests.engine.test_tekken import ANY_TEXT

WHISPER_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
SPECIAL_TEXT = ["<|endoftext|>", "<|startoftranscript|>", "<|ko|>", "<|yue|>", "<|0.02|>", "<|30.00|>", "<|nospeech|>"]
texts = st.lists(st.one_of(st.sampled_from(FRAGMENTS + SPECIAL_TEXT), ANY_TEXT), max_size=12).map("".join)


def whisper_oracle(path: Path) -> tiktoken.Encoding:
    """``whisper.tokenizer.get_encoding("multilingual")``, num_languages=99, as its source builds it."""
    ranks = {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in path.read_text().splitlines() if line)}
    n_vocab = len(ranks)
    specials = [
        "<|endoftext|>", "<|startoftranscript|>", *[f"<|{code}|>" for code in LANGUAGE_CODES[:99]],
        "<|translate|>", "<|transcribe|>", "<|startoflm|>", "<|startofprev|>", "<|nospeech|>", "<|notimestamps|>",
        *[f"<|{i * 0.02:.2f}|>" for i in range(1501)],
    ]  # fmt: skip
    special_tokens = {token: n_vocab + i for i, token in enumerate(specials)}
    return tiktoken.Encoding(
        "multilingual.tiktoken", explicit_n_vocab=n_vocab + len(specials), pat_str=WHISPER_PATTERN,
        mergeable_ranks=ranks, special_tokens=special_tokens,
    )  # fmt: skip


@pytest.fixture(scope="module")
def whisper_path(builtin_model_path) -> Path:  # type: ignore[no-untyped-def]
    return builtin_model_path("whisper")


@pytest.fixture(scope="module")
def whisper(whisper_path: Path) -> BpeTokenizer:
    return load_whisper(whisper_path)


@pytest.fixture(scope="module")
def oracle(whisper_path: Path) -> tiktoken.Encoding:
    return whisper_oracle(whisper_path)


def test_special_ids_are_whispers(whisper: BpeTokenizer, oracle: tiktoken.Encoding) -> None:
    specials = whisper.special_tokens
    assert specials == oracle._special_tokens
    assert (specials["<|endoftext|>"], specials["<|startoftranscript|>"], specials["<|en|>"]) == (50257, 50258, 50259)
    assert (specials["<|translate|>"], specials["<|transcribe|>"], specials["<|notimestamps|>"]) == (50358, 50359, 50363)
    assert (specials["<|0.00|>"], specials["<|30.00|>"]) == (50364, 51864)
    assert "<|yue|>" not in specials  # 99 languages unless asked (large-v3 uses 100)
    assert oracle.n_vocab == 51865 and whisper.vocab_size == 51864  # id 50256 (the empty token) unused
    assert whisper.tiktoken_status()[1] == ""


@pytest.mark.parametrize("corpus", ["alice_text", "korean_text"])
def test_corpora_ids_equal_tiktoken(corpus: str, whisper: BpeTokenizer, oracle: tiktoken.Encoding, request: pytest.FixtureRequest) -> None:
    text = request.getfixturevalue(corpus)
    ids = whisper.with_backend("python").encode(text, special_mode="text")
    assert ids == oracle.encode_ordinary(text)
    assert whisper.decode(ids) == text


@settings(max_examples=100)
@given(text=texts)
def test_hypothesis_ids_equal_tiktoken(whisper: BpeTokenizer, oracle: tiktoken.Encoding, text: str) -> None:
    python = whisper.with_backend("python")
    assert python.encode(text, special_mode="text") == oracle.encode(text, disallowed_special=())
    special = python.encode(text, special_mode="special")
    assert special == oracle.encode(text, allowed_special="all")
    assert python.decode(special) == oracle.decode(special)


def test_num_languages_100_adds_cantonese(whisper_path: Path) -> None:
    v3 = load_whisper(whisper_path, num_languages=100)
    assert v3.special_tokens["<|yue|>"] == 50358 and v3.special_tokens["<|translate|>"] == 50359


def test_registry_name(whisper: BpeTokenizer) -> None:
    tok = load_tokenizer("whisper")
    assert tok.name == "whisper"
    assert tok.encode("<|startoftranscript|><|ko|>안녕", special_mode="special")[:2] == [50258, 50264]
