"""Stitched line encodings equal whole-text encodings for every tokenizer the cache cuts for."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.catalog.openai import load_reference
from bpe_engine.compare import align_row, compare
from bpe_engine.compare.baselines import CharacterTokenizer, WhitespaceWordTokenizer
from bpe_engine.compare.rows import _encode
from bpe_engine.compare.segments import SegmentCache
from bpe_engine.corpus.blocks import cut_points
from bpe_engine.inspect.partial import partial_flags
from bpe_engine.pretokenizers import WHITESPACE, custom
from bpe_engine.registry import load_tokenizer

NAMES = ("characters", "words", "bert-base-uncased", "gpt2", "cl100k_base", "o200k_base", "trained")


@lru_cache(maxsize=None)
def tokenizer(name: str) -> Any:
    if name == "characters":
        return CharacterTokenizer()
    if name == "words":
        return WhitespaceWordTokenizer()
    if name == "trained":
        from bpe_engine.training.bpe import BpeTrainerConfig, train

        return train(["hello world\nhello there\n한국어 텍스트\n"] * 5, BpeTrainerConfig(vocab_size=300)).tokenizer
    if name in ("gpt2", "cl100k_base", "o200k_base"):
        return load_reference(name)
    return load_tokenizer(name)


pieces = st.sampled_from(["a", "Hello", " ", "  ", "\n", "\n\n", "\t", "!", "'s", "12345", "한국", "👩\u200d👧", " \n", "<|endoftext|>", "\r\n", "é"])
texts = st.lists(pieces, max_size=30).map("".join)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=60, deadline=None)
@given(text=texts)
def test_stitched_equals_whole(name: str, text: str) -> None:
    tok = tokenizer(name)
    assert tok.capabilities.line_safe
    for mode in ("text", "special"):
        whole = _encode(tok, text, mode)
        assert SegmentCache().encode(tok, text, mode, _encode) == whole
        stitched = SegmentCache().row(tok, text, mode, _encode)
        if stitched is not None:  # None: the text is one segment
            assert stitched.encoding == whole
            assert stitched.alignment == align_row(whole)
            assert stitched.partial == partial_flags(whole)


@pytest.mark.parametrize("name", NAMES)
def test_stitched_equals_whole_on_the_corpora(name: str, alice_text: str, korean_text: str) -> None:
    tok = tokenizer(name)
    for text in (alice_text[:20000], korean_text[:8000]):
        cache = SegmentCache()
        assert len(cut_points(text)) > 10
        assert cache.encode(tok, text, "text", _encode) == _encode(tok, text, "text")
        edited = text[:5000] + "x" + text[5000:]
        assert cache.encode(tok, edited, "text", _encode) == _encode(tok, edited, "text")
        for typed in (text + "x", edited, text):  # pieces moved, then back where they were
            stitched = cache.row(tok, typed, "text", _encode)
            if tok.capabilities.adds_specials:
                assert stitched is None, "[CLS] ... [SEP] wrap the whole text: it is encoded whole"
                continue
            assert stitched is not None
            whole = _encode(tok, typed, "text")
            assert (stitched.encoding, stitched.alignment, stitched.partial) == (whole, align_row(whole), partial_flags(whole))


def test_unsafe_pre_tokenizers_are_encoded_whole() -> None:
    """The ``▁`` style, a custom regex and an HF pipeline declare that a line start may be crossed."""
    from bpe_engine.training.bpe import BpeTrainerConfig, train

    corpus = ["a b\nab ba\n"] * 3
    for pre in (WHITESPACE, custom(r"\S+\s*")):
        tok = train(corpus, BpeTrainerConfig(vocab_size=260, pre_tokenizer=pre)).tokenizer
        assert not tok.capabilities.line_safe
        text = "ab\nba\nab"
        assert len(cut_points(text)) > 1 and SegmentCache().row(tok, text, "text", _encode) is None


def test_cut_rule() -> None:
    assert cut_points("a\nb\n\nc\n d \ne") == [0, 2]
    assert cut_points("") == [0] and cut_points("\nab") == [0]


def test_compare_with_a_cache_matches_without() -> None:
    toks = [tokenizer(n) for n in ("characters", "gpt2", "bert-base-uncased")]
    text = "line one\nline two 한국\nline three"
    cache = SegmentCache()
    for _ in range(2):  # second pass served from the cache
        with_cache = compare(text, toks, special_mode="text", cache=cache)
        plain = compare(text, toks, special_mode="text")
        assert [r.encoding for r in with_cache.rows] == [r.encoding for r in plain.rows]
        assert [r.stats for r in with_cache.rows] == [r.stats for r in plain.rows]
        assert [(r.alignment, r.partial) for r in with_cache.rows] == [(r.alignment, r.partial) for r in plain.rows]
        assert with_cache.disagreements == plain.disagreements


def test_a_text_of_more_lines_than_the_bound_stays_cached() -> None:
    """Six rows of a 1,500-line text are ~9,000 segments: a fixed bound of 4,096 evicted each
    row's lines while the next rows were filled, so every key encoded everything again."""
    toks = [tokenizer(n) for n in ("characters", "words", "gpt2", "cl100k_base", "o200k_base", "bert-base-uncased")]
    text = "".join(f"line {i} of the text\n" for i in range(1500))
    cache = SegmentCache(size=4096)
    compare(text, toks, special_mode="text", cache=cache)
    encoded: list[str] = []

    def counting(tok: Any, segment: str, mode: Any) -> Any:
        encoded.append(segment)
        return _encode(tok, segment, mode)

    typed = text + "x"
    for tok in toks:
        cache.encode(tok, typed, "text", counting)
    assert len(encoded) == len(toks), f"{len(encoded)} segments encoded again for one typed key"
