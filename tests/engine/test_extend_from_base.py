"""Extending a base BPE: train to V1, extend to V2, and the merges are HF ``BpeTrainer``'s to V2."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_engine.corpus import count_words
from bpe_engine.errors import ConfigError
from bpe_engine.pretokenizers import GPT2, NONE
from bpe_engine.registry import load_tokenizer
from bpe_engine.surgery import ExtendConfig, Extension, bpe_base
from bpe_engine.surgery.extend import extend
from bpe_engine.training.bpe import BpeTrainerConfig, train
from tests.oracles import require

tokenizers = require("tokenizers")


def hf_merges(
    docs: list[str], vocab_size: int, *, byte_level: bool, max_token_length: int | None, min_frequency: int = 0,
    specials: tuple[str, ...] = (),
) -> list[tuple[str, str]]:
    """HF ``BpeTrainer`` from scratch (byte-level: GPT-2's regex and all 256 bytes, as ``train``)."""
    pre = tokenizers.pre_tokenizers
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    options: dict = {}
    if byte_level:
        tok.pre_tokenizer = pre.Sequence(
            [pre.Split(tokenizers.Regex(GPT2.pattern), "isolated"), pre.ByteLevel(add_prefix_space=False, use_regex=False)]
        )
        options["initial_alphabet"] = pre.ByteLevel.alphabet()
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=min_frequency, max_token_length=max_token_length, show_progress=False,
        special_tokens=list(specials), **options,
    )
    tok.train_from_iterator(docs, trainer)
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in json.loads(tok.to_str())["model"]["merges"]]


def reused_an_id(steps) -> bool:
    return len({s.new for s in steps}) < len(steps)


def train_then_extend(docs, pre, byte_level, v1, v2, max_token_length, min_frequency=0, specials=()):
    """``train`` to ``v1`` tokens, then extend that tokenizer until it has ``v2``: (tokenizer, V1 run, new steps)."""
    wc = count_words(docs, pre, byte_level=byte_level, workers=1)
    config = BpeTrainerConfig(
        vocab_size=v1, byte_level=byte_level, pre_tokenizer=pre, max_token_length=max_token_length,
        min_frequency=min_frequency, special_tokens=specials,
    )
    first = train(wc, config, workers=1)
    add = v2 - len(first.tokenizer.vocab)
    tok, steps, _ = extend(bpe_base(first.tokenizer), wc, ExtendConfig(add=add, max_token_length=max_token_length, min_frequency=min_frequency))
    return tok, first, steps


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    docs=st.lists(st.text(alphabet="aabbc d", min_size=1, max_size=20), min_size=1, max_size=8),
    first=st.integers(min_value=0, max_value=20),
    more=st.integers(min_value=1, max_value=25),
    min_frequency=st.integers(min_value=0, max_value=3),
    max_token_length=st.one_of(st.none(), st.integers(min_value=2, max_value=6)),
    specials=st.sampled_from([(), ("ab",), ("ab", "bab", "<s>")]),
)
def test_train_then_extend_equals_hf_from_scratch(docs, first, more, min_frequency, max_token_length, specials) -> None:
    # specials spelled like merge results make HF reuse their ids: those runs are held to HF too
    alphabet = len(set("".join(docs))) + len(specials)
    v1, v2 = alphabet + first, alphabet + first + more
    tok, _, _ = train_then_extend(docs, NONE, False, v1, v2, max_token_length, min_frequency, specials)
    expected = hf_merges(docs, v2, byte_level=False, max_token_length=max_token_length, min_frequency=min_frequency, specials=specials)
    assert tok.merges == expected


@pytest.mark.parametrize("max_token_length", [None, 16])
@pytest.mark.parametrize("which", ["alice", "korean"])
def test_train_then_extend_equals_hf_on_corpora(which, max_token_length, alice_text: str, korean_text: str) -> None:
    text = alice_text[:40_000] if which == "alice" else korean_text[:20_000]
    tok, first, steps = train_then_extend([text], GPT2, True, 256 + 300, 256 + 700, max_token_length)
    expected = hf_merges([text], 256 + 700, byte_level=True, max_token_length=max_token_length)
    assert tok.merges == expected
    assert [s.new_id for s in steps] == list(range(556, 956))  # new ids follow the base's
    assert [s.rank for s in steps] == list(range(400))  # numbered among the new merges
    vocab = first.tokenizer.vocab
    assert all(tok.vocab[t] == i for t, i in vocab.items())


def test_base_ids_bytes_and_specials_are_kept(korean_text: str) -> None:
    base = bpe_base(load_tokenizer("cl100k_base"))
    wc = count_words([korean_text[:15_000]], base.pre_tokenizer, byte_level=True, workers=1)
    tok, steps, run = extend(base, wc, ExtendConfig(add=200))
    assert base.next_id == 100_277  # after <|endofprompt|>: the holes 100256, 100261-100275 stay cl100k's
    assert [s.new_id for s in steps] == list(range(100_277, 100_277 + len(steps)))
    assert len(steps) == 200
    old = base.tokenizer
    for i in range(0, 100_256):
        assert tok.token_bytes(i) == old.token_bytes(i)
    assert tok.special_tokens == old.special_tokens
    assert len(tok.encode(korean_text[:15_000])) < run.start.tokens
    assert tok.decode(tok.encode(korean_text)) == korean_text


def test_llama3_ranks_without_a_pair_are_named() -> None:
    base = bpe_base(load_tokenizer("llama3"))
    wc = count_words(["안녕하세요 세계 " * 3], base.pre_tokenizer, byte_level=True, workers=1)
    run = Extension(base, wc, ExtendConfig(add=3))
    assert len(base.unbuilt) == 678
    assert any("678 ranks" in note and "have no pair" in note for note in run.notes)
    assert base.next_id == 128_256


def test_what_is_not_a_bpe_base_is_refused_in_one_line() -> None:
    with pytest.raises(ConfigError, match="WordPiece tokenizer, not a BPE"):
        bpe_base(load_tokenizer("bert-base-uncased"))
    base = bpe_base(load_tokenizer("gpt2"))
    wc = count_words(["hello"], GPT2, byte_level=True, workers=1)
    with pytest.raises(ConfigError, match="ids stop below 1,000,000; add at most 949,743"):
        Extension(base, wc, ExtendConfig(add=950_000))


def test_a_normalizing_base_counts_normalized_text() -> None:
    # Qwen puts text in NFC before anything: e + combining acute is one word "é" for it
    base = bpe_base(load_tokenizer("qwen2.5"))
    wc = count_words(["cafe\u0301 cafe\u0301"], base.pre_tokenizer, byte_level=True, workers=1, normalizer=base.normalizer)
    plain = count_words(["caf\u00e9 caf\u00e9"], base.pre_tokenizer, byte_level=True, workers=1)
    assert dict(wc.counts) == dict(plain.counts)


def test_an_extended_rank_table_derives_only_its_new_pairs(korean_text: str) -> None:
    from bpe_engine.bpe.model import BpeTokenizer

    base = bpe_base(load_tokenizer("gpt2"))
    wc = count_words([korean_text[:8_000]], base.pre_tokenizer, byte_level=True, workers=1)
    tok, steps, _ = extend(base, wc, ExtendConfig(add=60))
    fresh = BpeTokenizer.from_ranks(name="fresh", mergeable_ranks=tok.mergeable_ranks, pre_tokenizer=tok.pre_tokenizer)
    assert tok._table.derived_merges() == fresh._table.derived_merges()
    assert tok.merges[-60:] == fresh.merges[-60:] and len(tok.merges) == 50_060
