"""Llama 3/4 and Qwen 2.5/3.6 in the explorer's views: Compare's line-by-line stitching, "why"
(Compare's rows in the app: tests/tui/test_compare_llama_qwen.py).

They are ``BpeTokenizer`` rank tables, so every view works for them as for cl100k; what is new is
Qwen's NFC stage, so the texts here include characters NFC rewrites at line starts and ends.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.compare import align_row
from bpe_engine.compare.rows import _encode
from bpe_engine.compare.segments import SegmentCache
from bpe_engine.inspect.partial import partial_flags
from bpe_engine.inspect.why import explain
from bpe_engine.registry import load_tokenizer

NAMES = ("llama3", "llama4", "qwen2.5", "qwen3.6")


@cache
def tokenizer(name: str) -> Any:
    return load_tokenizer(name)


@pytest.fixture(scope="module", autouse=True)
def fetched(builtin_model_path: Any) -> None:
    for name in NAMES:
        builtin_model_path(name)  # fetched before the suite; fails with the command otherwise


pieces = st.sampled_from(["a", "Hello", " ", "\n", "\n\n", "!", "'s", "12345", "한국", "e\u0301", "\u0301", "\u1100\u1161", "\u212b", "é", "<|endoftext|>", "<think>"])
texts = st.lists(pieces, max_size=30).map("".join)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40)
@given(text=texts)
def test_stitched_lines_equal_the_whole_text(name: str, text: str) -> None:
    tok = tokenizer(name)
    assert tok.capabilities.line_safe
    for mode in ("text", "special"):
        whole = _encode(tok, text, mode)
        assert SegmentCache().encode(tok, text, mode, _encode) == whole
        stitched = SegmentCache().row(tok, text, mode, _encode)
        if stitched is not None:
            assert stitched.encoding == whole
            assert stitched.alignment == align_row(whole)
            assert stitched.partial == partial_flags(whole)


@pytest.mark.parametrize("name", NAMES)
def test_why_is_the_merge_tree_from_the_ranks(name: str) -> None:
    tok = tokenizer(name)
    enc = tok.encode_detailed(" tokenization")
    why = explain(tok, enc, len(enc.ids) - 1)
    assert why.tree is not None and why.tree.children and why.tree.data == tok.token_bytes(enc.ids[-1])


def test_why_says_what_nfc_made_of_the_text() -> None:
    tok = tokenizer("qwen3.6")
    enc = tok.encode_detailed("Cafe\u0301")
    k = next(i for i, (s, e) in enumerate(enc.byte_spans) if e == len(enc.text.encode()))
    why = explain(tok, enc, k)
    assert "qwen3.6 puts text in NFC first" in why.note and "é" in why.note
    assert "NFC" not in explain(tok, enc, 0).note
