"""Llama 3 and Llama 4 (llama-models 0.3.0's tokenizer.model files, fetched built-ins): tiktoken's ids.

The oracle is tiktoken built the way ``llama_models/llama{3,4}/tokenizer.py`` builds it: the rank
file as its ``load_bpe_file`` reads it, the pattern copied here verbatim from that source (not from
our module, so a slip in either shows), and the special tokens numbered from the rank count. Ours
runs the pure-Python encoder (``backend="python"``), so the two implementations are independent.
"""

from __future__ import annotations

import base64
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.formats.llama import LLAMA3_PATTERN, LLAMA4_PATTERN, load_llama3, load_llama4
from bpe_engine.pretokenizers import O200K_PATTERN
from bpe_engine.registry import load_tokenizer
from tests.engine.test_encode_parity import FRAGMENTS
from tests.engine.test_tekken import ANY_TEXT

# Verbatim from llama-models 0.3.0: llama3/tokenizer.py Tokenizer.pat_str, llama4/tokenizer.py O200K_PATTERN.
SOURCE_PATTERNS = {
    "llama3": r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",  # noqa: E501
    "llama4": r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+""",  # noqa: E501
}
SPECIAL_TEXT = ["<|begin_of_text|>", "<|eot_id|>", "<|python_tag|>", "<|header_start|>", "<|eot|>", "<|patch|>", "<|image|>"]
texts = st.lists(st.one_of(st.sampled_from(FRAGMENTS + SPECIAL_TEXT + ["1234567", "don't"]), ANY_TEXT), max_size=12).map("".join)
NAMES = ("llama3", "llama4")


def oracle_specials(name: str, n_ranks: int) -> dict[str, int]:
    """The special-token lists of llama-models' ``Tokenizer.__init__``, rebuilt independently."""
    if name == "llama3":
        named = [
            "<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>", "<|reserved_special_token_1|>",
            "<|finetune_right_pad_id|>", "<|step_id|>", "<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>",
            "<|eot_id|>", "<|python_tag|>", "<|image|>",
        ]  # fmt: skip
        tokens = named + [f"<|reserved_special_token_{2 + i}|>" for i in range(256 - len(named))]
    else:
        def reserved(kind: str, count: int, start: int) -> list[str]:
            return [f"<|{kind}_reserved_special_token_{i}|>" for i in range(start, start + count)]

        post = ["<|header_start|>", "<|header_end|>", "<|eom|>", "<|eot|>", "<|step|>", *reserved("text_post_train", 6, 0),
                "<|python_start|>", "<|python_end|>", "<|finetune_right_pad|>", *reserved("text_post_train", 61, 8)]  # fmt: skip
        vision = ["<|image_start|>", "<|image_end|>", *reserved("vision", 2, 0), "<|tile_x_separator|>", "<|tile_y_separator|>",
                  *reserved("vision", 4, 2), "<|image|>", *reserved("vision", 1, 6), "<|patch|>", *reserved("vision", 1041, 7)]  # fmt: skip
        reasoning = [*reserved("reasoning", 8, 0), "<|reasoning_thinking_start|>", "<|reasoning_thinking_end|>"]
        named = ["<|begin_of_text|>", "<|end_of_text|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", *post, *vision, *reasoning]
        tokens = named + [f"<|reserved_special_token_{i}|>" for i in range(2048 - len(named))]
    return {token: n_ranks + i for i, token in enumerate(tokens)}


@cache
def oracle(path: Path, name: str) -> tiktoken.Encoding:
    ranks = {base64.b64decode(t): int(r) for t, r in (line.split() for line in path.read_text().splitlines() if line.strip())}
    return tiktoken.Encoding(path.name, pat_str=SOURCE_PATTERNS[name], mergeable_ranks=ranks, special_tokens=oracle_specials(name, len(ranks)))


@pytest.fixture(scope="module")
def llama(builtin_model_path: Any) -> dict[str, tuple[BpeTokenizer, tiktoken.Encoding]]:
    out = {}
    for name, loader in (("llama3", load_llama3), ("llama4", load_llama4)):
        path = builtin_model_path(name)
        out[name] = (loader(path), oracle(path, name))
    return out


def test_shape_patterns_and_special_ids(llama: dict[str, tuple[BpeTokenizer, tiktoken.Encoding]]) -> None:
    assert LLAMA3_PATTERN == SOURCE_PATTERNS["llama3"] and LLAMA4_PATTERN == SOURCE_PATTERNS["llama4"] == O200K_PATTERN
    l3, o3 = llama["llama3"]
    l4, o4 = llama["llama4"]
    assert (l3.vocab_size, l4.vocab_size) == (128_256, 202_048) == (o3.n_vocab, o4.n_vocab)
    assert l3.special_tokens == o3._special_tokens and l4.special_tokens == o4._special_tokens
    s3, s4 = l3.special_tokens, l4.special_tokens
    assert (s3["<|begin_of_text|>"], s3["<|eot_id|>"], s3["<|python_tag|>"], s3["<|reserved_special_token_245|>"]) == (128000, 128009, 128010, 128255)
    assert (s4["<|begin_of_text|>"], s4["<|header_start|>"], s4["<|eot|>"], s4["<|image_start|>"], s4["<|patch|>"]) == (200000, 200005, 200008, 200080, 200092)
    assert (s4["<|reasoning_thinking_start|>"], s4["<|reasoning_thinking_end|>"], s4["<|reserved_special_token_903|>"]) == (201142, 201143, 202047)
    for tok in (l3, l4):
        assert tok.tiktoken_status()[1] == ""  # the bridge accepts both regexes
        caps = tok.capabilities
        assert caps.byte_level and caps.explains == "merge-tree" and caps.line_safe and caps.normalizer is None


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("corpus", ["alice_text", "korean_text"])
def test_corpora_ids_equal_tiktoken(name: str, corpus: str, llama: Any, request: pytest.FixtureRequest) -> None:
    text = request.getfixturevalue(corpus)
    tok, ref = llama[name]
    ids = tok.with_backend("python").encode(text)
    assert ids == ref.encode_ordinary(text)
    assert tok.encode(text) == ids  # the tiktoken fast path agrees
    assert tok.decode(ids) == text
    lines = text.splitlines(keepends=True)[:400]
    assert [tok.with_backend("python").encode(line) for line in lines] == [ref.encode_ordinary(line) for line in lines]


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=80)
@given(text=texts)
def test_hypothesis_ids_equal_tiktoken(name: str, llama: Any, text: str) -> None:
    tok, ref = llama[name]
    python = tok.with_backend("python")
    assert python.encode(text, special_mode="text") == ref.encode(text, disallowed_special=())
    assert python.encode(text, special_mode="special") == ref.encode(text, allowed_special="all")
    assert tok.encode(text, special_mode="special") == ref.encode(text, allowed_special="all")
    enc = python.encode_detailed(text, special_mode="special")
    assert b"".join(tok.token_bytes(i) for i in enc.ids) == enc.text.encode("utf-8")


def test_chat_markup_as_special_tokens(llama: Any) -> None:
    l3, _ = llama["llama3"]
    ids = l3.encode("<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|>", special_mode="special")
    assert ids[:2] == [128000, 128006] and ids[-1] == 128009
    assert l3.decode(ids).startswith("<|begin_of_text|>")
    assert 128000 not in l3.encode("<|begin_of_text|>")  # text by default, as everywhere in bpe-explorer


@pytest.mark.parametrize("name", NAMES)
def test_registry_loads_by_name(name: str, llama: Any) -> None:
    tok = load_tokenizer(name)
    assert tok.name == name
    assert tok.encode("한국어 tokenization") == llama[name][1].encode_ordinary("한국어 tokenization")
