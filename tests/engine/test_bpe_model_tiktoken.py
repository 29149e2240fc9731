"""The tiktoken fast path: used only where proven identical, and then identical in fact."""

from __future__ import annotations

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.bpe.tiktoken_bridge import to_tiktoken, why_not_tiktoken
from bpe_engine.catalog.openai import load_reference
from bpe_engine.core.byte_table import BYTE_TO_CHAR
from bpe_engine.errors import ConfigError
from bpe_engine.pretokenizers import GPT2, WHITESPACE, custom

BYTE_VOCAB = {BYTE_TO_CHAR[b]: b for b in range(256)}


def byte_tokenizer(merges: list[tuple[str, str]], pre_tokenizer=GPT2, **kw: object) -> BpeTokenizer:  # type: ignore[no-untyped-def]
    vocab = dict(BYTE_VOCAB)
    for left, right in merges:
        vocab.setdefault(left + right, len(vocab))
    return BpeTokenizer(name="t", vocab=vocab, merges=merges, pre_tokenizer=pre_tokenizer, byte_level=True, **kw)  # type: ignore[arg-type]


PROVABLE = [("a", "b"), ("c", "d"), ("ab", "cd"), ("Ġ", "ab"), ("e", "e"), ("ee", "ee")]


def test_references_always_qualify() -> None:
    for name in ("gpt2", "cl100k_base"):
        assert why_not_tiktoken(load_reference(name)) is None
        assert isinstance(to_tiktoken(load_reference(name)), tiktoken.Encoding)


def test_provable_merge_list_uses_tiktoken() -> None:
    tok = byte_tokenizer(PROVABLE, special_tokens={"<|endoftext|>": 500})
    assert why_not_tiktoken(tok) is None
    assert tok.with_backend("tiktoken").encode("abcd ab eeee") == [tok.id_of("abcd"), tok.id_of("Ġab"), 32, tok.id_of("eeee")]


@settings(max_examples=200, deadline=None)
@given(text=st.lists(st.sampled_from(list("abcde ") + ["<|endoftext|>", "é", "\n"]), max_size=40).map("".join))
def test_proven_fast_path_equals_python(text: str) -> None:
    tok = byte_tokenizer(PROVABLE, special_tokens={"<|endoftext|>": 500})
    fast, slow = tok.with_backend("tiktoken"), tok.with_backend("python")
    assert fast.encode(text, special_mode="special") == slow.encode(text, special_mode="special")
    assert fast.encode_detailed(text, special_mode="text") == slow.encode_detailed(text, special_mode="text")


def test_missing_bridging_merge_is_rejected_and_would_differ() -> None:
    """(b,c) before (a,b), no (a,bc): merges give [a, bc], tiktoken's byte ranks give [abc]."""
    tok = byte_tokenizer([("b", "c"), ("a", "b"), ("ab", "c")])
    reason = why_not_tiktoken(tok)
    assert reason is not None and "condition 2" in reason
    naive = tiktoken.Encoding(
        "naive", pat_str=GPT2.pattern, mergeable_ranks={tok.token_bytes(i): i for i in tok.vocab.values()}, special_tokens={}
    )
    assert tok.encode("abc") == [ord("a"), tok.id_of("bc")]
    assert naive.encode("abc") == [tok.id_of("abc")]  # what an unproven fast path would get wrong
    assert tok.backend == "auto" and tok.encode("abc") == tok.with_backend("python").encode("abc")
    with pytest.raises(ConfigError, match="cannot use the tiktoken backend"):
        tok.with_backend("tiktoken").encode("abc")


@pytest.mark.parametrize(
    ("merges", "kw", "fragment"),
    [
        ([("b", "c"), ("a", "b"), ("a", "bc"), ("ab", "c")], {}, "condition 1"),
        ([("a", "b"), ("c", "d")], {"pre_tokenizer": WHITESPACE}, "pre-tokenizer"),
        ([("a", "b")], {"pre_tokenizer": custom(r"\w+")}, "pre-tokenizer"),
    ],
)
def test_unprovable_cases_name_the_reason(merges: list[tuple[str, str]], kw: dict, fragment: str) -> None:
    assert fragment in (why_not_tiktoken(byte_tokenizer(merges, **kw)) or "")


def test_id_order_must_follow_merge_order() -> None:
    vocab = dict(BYTE_VOCAB) | {"cd": 256, "ab": 257}
    tok = BpeTokenizer(name="t", vocab=vocab, merges=[("a", "b"), ("c", "d")], pre_tokenizer=GPT2, byte_level=True)
    assert "condition 3" in (why_not_tiktoken(tok) or "")


def test_unreachable_token_is_rejected() -> None:
    """"abcd" is a merge of ab+cd, but (b,c) comes first, so the bytes "abcd" never reach it:
    tiktoken's whole-piece shortcut would return it anyway (condition 4)."""
    tok = byte_tokenizer([("b", "c"), ("a", "b"), ("c", "d"), ("ab", "cd")])
    assert "condition 4" in (why_not_tiktoken(tok) or "")
    assert tok.encode("abcd") == [ord("a"), tok.id_of("bc"), ord("d")]


def test_prefix_views_do_not_use_tiktoken() -> None:
    tok = byte_tokenizer(PROVABLE)
    assert "first 2 of 6 merges" in (why_not_tiktoken(tok.with_merge_prefix(2)) or "")


@pytest.mark.parametrize("pre_name", ["hf-gpt2", "none", "o200k"])
@settings(max_examples=100, deadline=None)
@given(text=st.lists(st.sampled_from(list("abcde") + [" ", "  ", "\n", "\t", "'s", "1234", "한", "!?"]), max_size=30).map("".join))
def test_other_safe_pretokenizers_split_alike_in_tiktoken(pre_name: str, text: str) -> None:
    from bpe_engine.pretokenizers import BUILTIN

    tok = byte_tokenizer(PROVABLE, pre_tokenizer=BUILTIN[pre_name])
    assert why_not_tiktoken(tok) is None
    assert tok.with_backend("tiktoken").encode(text) == tok.with_backend("python").encode(text)
