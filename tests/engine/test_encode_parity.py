"""Our pure-Python encoder gives tiktoken's exact ids on the reference rank tables: zero mismatches.

tiktoken here is built straight from the verified ranks (not through our bridge), so these tests
compare two independent implementations of the same model.
"""

from __future__ import annotations

import functools

import pytest
import tiktoken
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.bpe.naive_encode import encode_with_ranks
from bpe_engine.catalog.openai import (
    load_reference,
    reference_pre_tokenizer,
    reference_ranks,
    reference_special_tokens,
)
from tests.oracles import require

NAMES = ["gpt2", "p50k_base", "cl100k_base", "o200k_base"]


@functools.cache
def tiktoken_of(name: str) -> tiktoken.Encoding:
    return tiktoken.Encoding(
        name,
        pat_str=reference_pre_tokenizer(name).pattern,
        mergeable_ranks=reference_ranks(name),
        special_tokens=reference_special_tokens(name),
    )


@functools.cache
def python_of(name: str) -> BpeTokenizer:
    return load_reference(name).with_backend("python")


# Text that stresses the regexes and the byte merges: Hangul, emoji (4-byte + ZWJ), combining
# marks, CJK, contractions, digits, whitespace runs (incl. \r\n, tabs, NBSP), special-token text.
FRAGMENTS = [
    "한국어", "대한민국 헌법", "🙂", "👩‍👩‍👧", "🇰🇷", "é", "e\u0301", "中文", "ﬁ", "Ω",
    "'s", "'LL", "don't", "123456", "3.14", "  ", "   ", "\t", "\n", "\r\n", "\n\n", "\u00a0", "\u3000",
    " ", "hello", " world", "<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>", "<|", "|>",
    "!!!", "...", "^^^^", "x", "ĠHello", "\x00", "\x7f", "\ufeff", "\U0001f600",
]
texts = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=12)), max_size=12).map("".join)
surrogate_texts = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.sampled_from(["\ud83d\ude00", "\ud800", "\udfff", "a\udc00b"])),
    max_size=8,
).map("".join)

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", NAMES)
@SETTINGS
@given(text=texts)
def test_python_ids_equal_tiktoken(name: str, text: str) -> None:
    ours = python_of(name)
    theirs = tiktoken_of(name)
    assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)
    assert ours.encode(text, special_mode="special") == theirs.encode(text, allowed_special="all")
    assert ours.encode(text, special_mode="text") == theirs.encode(text, disallowed_special=())
    assert ours.decode(ours.encode_ordinary(text)) == text


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=100, deadline=None)
@given(text=surrogate_texts)
def test_surrogates_like_tiktoken(name: str, text: str) -> None:
    """Surrogate pairs join, lone surrogates become U+FFFD -- tiktoken's documented fix-up."""
    ours = python_of(name)
    ids = ours.encode_ordinary(text)
    assert ids == tiktoken_of(name).encode_ordinary(text)
    assert ours.decode(ids) == text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base"])
@settings(max_examples=100, deadline=None)
@given(text=texts)
def test_reference_encoder_equals_fast_encoder(name: str, text: str) -> None:
    ranks = reference_ranks(name)
    pattern = reference_pre_tokenizer(name).pattern
    assert encode_with_ranks(text, ranks, pattern=pattern) == python_of(name).encode_ordinary(text)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("fixture", ["alice_text", "korean_text"])
def test_whole_corpora_equal_tiktoken(name: str, fixture: str, request: pytest.FixtureRequest) -> None:
    text = request.getfixturevalue(fixture)
    tok = BpeTokenizer.from_ranks(  # a fresh tokenizer: nothing cached from other tests
        name=name,
        mergeable_ranks=reference_ranks(name),
        pre_tokenizer=reference_pre_tokenizer(name),
        special_tokens=reference_special_tokens(name),
        backend="python",
    )
    ids = tok.encode_ordinary(text)
    assert ids == tiktoken_of(name).encode_ordinary(text)
    assert tok.decode(ids) == text


@pytest.mark.parametrize("name", NAMES)
def test_tiktoken_backend_equals_python(name: str, alice_text: str, korean_text: str) -> None:
    fast = load_reference(name).with_backend("tiktoken")
    text = alice_text[:20000] + korean_text[:5000] + "<|endoftext|>"
    assert fast.encode(text, special_mode="special") == python_of(name).encode(text, special_mode="special")
    assert fast.encode_detailed(text, special_mode="text") == python_of(name).encode_detailed(text, special_mode="text")


@pytest.mark.parametrize(
    ("name", "text"),
    [("cl100k_base", "x" * 1_000_000), ("gpt2", "^" * 100_000), ("o200k_base", "ab" * 50_000), ("p50k_base", " " * 30_000)],
    ids=["x*1M", "caret*100k", "ab*50k", "space*30k"],
)
def test_catastrophically_repetitive_pieces_finish(name: str, text: str) -> None:
    ids = python_of(name).encode_ordinary(text)
    assert ids == tiktoken_of(name).encode_ordinary(text)
    assert python_of(name).decode(ids) == text


def test_trained_merge_list_equals_hf_tokenizers(alice_text: str, korean_text: str) -> None:
    """A merge list trained by Hugging Face encodes with HF's exact ids (lowest merge first)."""
    tokenizers = require("tokenizers")
    import json

    from bpe_engine.pretokenizers import HF_GPT2

    hf = tokenizers.Tokenizer(tokenizers.models.BPE())
    hf.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=2000,
        initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=["<|endoftext|>"],
        show_progress=False,
    )
    hf.train_from_iterator([alice_text, korean_text], trainer)
    model = json.loads(hf.to_str())["model"]
    merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in model["merges"]]
    ours = BpeTokenizer(
        name="hf-trained",
        vocab=model["vocab"],
        merges=merges,
        pre_tokenizer=HF_GPT2,
        byte_level=True,
        special_tokens={"<|endoftext|>": model["vocab"]["<|endoftext|>"]},
    )
    for text in (alice_text, korean_text, "x" * 300 + " 🙂 <|endoftext|>"):
        ids = ours.encode(text, special_mode="special")
        assert ids == hf.encode(text).ids
        assert ours.decode(ids) == text


EDGE_TEXTS = [
    "",
    "trailing   ",
    "trailing\n",
    "a \n\n  b\t\t \r\n c  ",
    "   leading",
    "x" + " " * 40 + "y",
    " " * 26,
    "\n" * 7 + " ",
    "I'll've we'RE don't 'S",
    "12345678901 3.14159 ١٢٣",
    "🙂🙂🙂 👩‍👩‍👧‍👦 🇰🇷🇯🇵",
    "한국어 문장입니다.  그리고   공백!",
    "<|endoftext|><|endoftext|>",
    "<|endof<|endoftext|>text|>",
]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", EDGE_TEXTS, ids=range(len(EDGE_TEXTS)))
def test_edge_texts_equal_tiktoken(name: str, text: str) -> None:
    ours, theirs = python_of(name), tiktoken_of(name)
    assert ours.encode(text, special_mode="special") == theirs.encode(text, allowed_special="all")
    assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)
    assert ours.decode(ours.encode_ordinary(text)) == text
