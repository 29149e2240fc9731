"""Every tokenizer.json pre-tokenizer against Hugging Face: pieces, offsets, ids, on both paths."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from tokenizers import Regex, Tokenizer
from tokenizers import pre_tokenizers as P

from bpe_engine.hf.normalized import NormalizedString
from tests.hf_oracle import TRICKY, assert_parity, byte_alphabet_bpe, ours, texts

BEHAVIORS = ["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"]

PRE_TOKENIZERS = {
    "ByteLevel": P.ByteLevel(add_prefix_space=False),
    "ByteLevelPrefix": P.ByteLevel(add_prefix_space=True),
    "ByteLevelNoRegex": P.ByteLevel(add_prefix_space=True, use_regex=False),
    "Whitespace": P.Whitespace(),
    "WhitespaceSplit": P.WhitespaceSplit(),
    "Bert": P.BertPreTokenizer(),
    "Digits": P.Digits(individual_digits=False),
    "DigitsEach": P.Digits(individual_digits=True),
    "CharDelimiter": P.CharDelimiterSplit("a"),
    "FixedLength": P.FixedLength(3),
    "MetaspaceAlways": P.Metaspace(),
    "MetaspaceFirst": P.Metaspace(prepend_scheme="first"),
    "MetaspaceNever": P.Metaspace(prepend_scheme="never"),
    "MetaspaceNoSplit": P.Metaspace(prepend_scheme="first", split=False),
    "SplitCl100k": P.Split(
        Regex(r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"),
        "isolated",
    ),
    "SplitIntervalPlus": P.Split(Regex(r"\p{N}{1,2}+"), "isolated"),
    "SplitLineAnchors": P.Split(Regex(r"^\s*\w|\w$"), "isolated"),
    "Sequence": P.Sequence([P.Punctuation(), P.Digits(individual_digits=True), P.ByteLevel(add_prefix_space=False, use_regex=False)]),
    **{f"Punctuation-{b}": P.Punctuation(b) for b in BEHAVIORS},
    **{f"Split-{b}": P.Split(" ", b) for b in BEHAVIORS},
    **{f"SplitRegex-{b}-inv": P.Split(Regex(r"\p{L}+"), b, invert=True) for b in BEHAVIORS},
}


def _probe(pre) -> Tokenizer:  # type: ignore[no-untyped-def]
    """Byte-level BPE without merges after ``pre`` (and ByteLevel, if ``pre`` does not map bytes)."""
    tok = Tokenizer(byte_alphabet_bpe())
    maps = "ByteLevel" in repr(pre)
    tok.pre_tokenizer = pre if maps else P.Sequence([pre, P.ByteLevel(add_prefix_space=False, use_regex=False)])
    return tok


@pytest.mark.parametrize("name", sorted(PRE_TOKENIZERS))
def test_pre_tokenizer_pieces_and_offsets_equal_hf(name: str, alice_text: str, korean_text: str) -> None:
    pre = PRE_TOKENIZERS[name]
    tok = ours(_probe(pre))
    stage = ours(_single(pre)).pipeline.pre_tokenizer
    for text in [*TRICKY, alice_text[:1500], korean_text[:600]]:
        expected = pre.pre_tokenize_str(text)
        if not text:
            continue
        pieces = stage.split_aligned([NormalizedString.from_text(text)], text)
        assert [(p.text, (p.start, p.end)) for p in pieces] == expected, text
        if "Metaspace" not in name or "Always" in name or "Never" in name:
            assert stage.split_fast([text], True) == [p for p, _ in expected], text
        assert_parity(_probe(pre), tok, text)


def _single(pre) -> Tokenizer:  # type: ignore[no-untyped-def]
    tok = Tokenizer(byte_alphabet_bpe())
    tok.pre_tokenizer = pre
    return tok


@settings(max_examples=40)
@given(texts)
def test_pre_tokenizers_on_any_text(text: str) -> None:
    for name in ("ByteLevel", "Bert", "MetaspaceFirst", "Split-merged_with_next", "SplitRegex-contiguous-inv", "Whitespace"):
        probe = _probe(PRE_TOKENIZERS[name])
        assert_parity(probe, _OURS.setdefault(name, ours(probe)), text)


_OURS: dict[str, object] = {}


def test_metaspace_first_prepends_only_at_the_start_of_the_text() -> None:
    """After a special token, "first" does not prepend ``▁`` (HF decides by original offsets)."""
    hf = _probe(P.Metaspace(prepend_scheme="first"))
    hf.add_special_tokens(["<s>"])
    tok = ours(hf)
    for text in ["<s>hello world", "hello<s>world", " hello", "<s> hello"]:
        assert_parity(hf, tok, text)
