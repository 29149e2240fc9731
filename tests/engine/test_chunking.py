"""Chunks of at most N tokens: laid end to end they are the input; each encodes alone to at most
N tokens (or says it cannot); where both ends are cut points its ids are the whole text's; they
are as full as the cut points allow; the work stays linear."""

from __future__ import annotations

import io
from bisect import bisect_left
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.compare.resolve import resolve_tokenizer
from bpe_engine.errors import ConfigError
from bpe_engine.streaming.chunking import chunk_text
from bpe_engine.streaming.encode_stream import encode_cut_rule, encode_ids, text_blocks

DATA = Path(__file__).resolve().parents[1] / "data"
NAMES = ("cl100k_base", "gpt2", "bert-base-uncased", "mistral-v1", "sp-unigram-en", "claude-legacy", "tekken", "characters")
HAZARDS = [*"ab1 .,\n\t'sé한\xa0\u0301", "  ", "\r\n", "\n\n", "word", "tokenization", "ﬁ", "<|endoftext|>", "<s>"]
texts = st.lists(st.sampled_from(HAZARDS), max_size=50).map("".join)


@pytest.fixture(scope="module")
def tokenizers() -> dict[str, Any]:
    return {name: resolve_tokenizer(name) for name in NAMES}


def chunks_of(tokenizer: Any, text: str, n: int, block_bytes: int = 4096) -> list[Any]:
    rule = encode_cut_rule(tokenizer)
    return list(chunk_text(tokenizer, text_blocks("t", io.BytesIO(text.encode()), rule, block_bytes), rule, n))


def check_chunks(tokenizer: Any, text: str, n: int, chunks: list[Any]) -> None:
    assert "".join(c.text for c in chunks) == text
    assert [c.start for c in chunks] == [0, *(c.end for c in chunks[:-1])][: len(chunks)]  # none for no text
    whole = tokenizer.encode_detailed(text)
    starts = [s for s, _ in whole.byte_spans]
    for c in chunks:
        alone = encode_ids(tokenizer, c.text, "text")[0]
        assert c.tokens == len(alone) and c.fits == (len(alone) <= n), c
        if c.exact:
            assert alone == list(whole.ids[bisect_left(starts, c.start) : bisect_left(starts, c.end)]), c


@settings(max_examples=40)
@given(texts, st.integers(1, 12), st.integers(1, 16))
def test_chunks_are_the_text_and_each_encodes_alone_to_at_most_n(tokenizers: dict[str, Any], text: str, n: int, block_bytes: int) -> None:
    for name, tokenizer in tokenizers.items():
        if tokenizer.capabilities.adds_specials:  # the whole text's ids hold <s> once; a chunk's alone, again
            continue
        check_chunks(tokenizer, text, n, chunks_of(tokenizer, text, n, block_bytes))


@pytest.mark.parametrize("name", NAMES)
def test_the_test_corpora_cut_into_chunks(tokenizers: dict[str, Any], name: str) -> None:
    tokenizer = tokenizers[name]
    text = (DATA / "alice29.txt").read_text(encoding="utf-8")[:6000] + (DATA / "constitution.txt").read_text(encoding="utf-8")[:2000]
    for n in (1, 5, 64):
        chunks = chunks_of(tokenizer, text, n, 1000)
        assert "".join(c.text for c in chunks) == text
        assert all(c.tokens == len(encode_ids(tokenizer, c.text, "text")[0]) for c in chunks)
        if n > 1:  # one token may not fit alone: part of a character, ##-piece that starts a chunk
            assert all(c.fits for c in chunks), name


def test_cut_points_make_exact_and_full_chunks(tokenizers: dict[str, Any]) -> None:
    """Where the tokenizer declares cut points, every chunk of ordinary text is cut at one (its ids
    are the whole text's) and holds all it can: the next word would not fit."""
    tokenizer = tokenizers["cl100k_base"]
    text = (DATA / "alice29.txt").read_text(encoding="utf-8")
    chunks = chunks_of(tokenizer, text, 64)
    check_chunks(tokenizer, text, 64, chunks)
    assert all(c.exact and c.fits for c in chunks)
    for chunk, after in zip(chunks, chunks[1:]):
        rule = encode_cut_rule(tokenizer)
        data = after.text.encode()
        next_cut = rule.find(data, 1)
        grown = chunk.text + data[: len(data) if next_cut == -1 else next_cut].decode()
        assert len(tokenizer.encode(grown)) > 64, (chunk.text, grown)


def test_a_text_with_no_cut_point_is_cut_beside_a_space(tokenizers: dict[str, Any]) -> None:
    """SentencePiece declares no cut point: chunks end at token boundaries, beside a space where
    one is near, and each is checked alone."""
    tokenizer = tokenizers["sp-unigram-en"]
    text = "the quick brown fox jumps over the lazy dog " * 20
    chunks = chunks_of(tokenizer, text, 10)
    check_chunks(tokenizer, text, 10, chunks)
    assert all(c.fits for c in chunks)
    assert all(a.text.endswith(" ") or b.text.startswith(" ") for a, b in zip(chunks, chunks[1:]))


class Recording:
    def __init__(self, inner: Any) -> None:
        self.inner, self.encoded = inner, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def encode(self, text: str, **kwargs: Any) -> list[int]:
        self.encoded += len(text)
        return self.inner.encode(text, **kwargs)

    def encode_detailed(self, text: str, **kwargs: Any) -> Any:
        self.encoded += len(text)
        return self.inner.encode_detailed(text, **kwargs)


@pytest.mark.parametrize(("name", "most"), [("cl100k_base", 1), ("sp-unigram-en", 4)])
def test_the_work_is_linear_in_the_text(tokenizers: dict[str, Any], name: str, most: int) -> None:
    """Counted, not timed: cut points need no second encoding; without them each chunk is encoded
    alone about once more (its end moves back only when it does not fit)."""
    text = (DATA / "alice29.txt").read_text(encoding="utf-8")[:40_000]
    tokenizer = Recording(tokenizers[name])
    chunks_of(tokenizer, text, 50)
    assert tokenizer.encoded <= most * len(text) + 1000


def test_a_chunk_needs_room_for_a_token(tokenizers: dict[str, Any]) -> None:
    with pytest.raises(ConfigError, match="at least 1 token"):
        chunks_of(tokenizers["gpt2"], "x", 0)
