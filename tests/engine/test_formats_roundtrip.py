"""Property tests: any vocabulary survives every format it fits, whatever characters it holds."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.formats.gpt2_files import merges_text, parse_merges, parse_vocab, vocab_json_text
from bpe_engine.formats.hf_json import hf_json_dict, hf_json_text, hf_spec_from_dict
from bpe_engine.formats.spec import BpeSpec
from bpe_engine.formats.tiktoken_files import parse_tiktoken, tiktoken_text
from bpe_engine.pretokenizers import NONE

# Quotes, backslashes, controls, non-BMP characters; no surrogates (not encodable as UTF-8).
chars = st.characters(blacklist_categories=("Cs",))
tokens = st.text(chars, min_size=1, max_size=6)


@st.composite
def specs(draw) -> BpeSpec:
    alphabet = draw(st.lists(st.text(chars, min_size=1, max_size=1), min_size=2, max_size=8, unique=True))
    vocab = {c: i for i, c in enumerate(alphabet)}
    merges: list[tuple[str, str]] = []
    for _ in range(draw(st.integers(0, 8))):
        left, right = draw(st.sampled_from(sorted(vocab))), draw(st.sampled_from(sorted(vocab)))
        if (left, right) not in merges and left + right not in vocab:
            merges.append((left, right))
            vocab[left + right] = len(vocab)
    specials = {t: len(vocab) + n for n, t in enumerate(draw(st.lists(tokens, max_size=2, unique=True))) if t not in vocab}
    return BpeSpec(name="p", vocab=vocab, merges=merges, pre_tokenizer=NONE, byte_level=False, special_tokens=specials)


@settings(max_examples=150, deadline=None)
@given(specs())
def test_tokenizer_json_text_is_the_dict_and_reads_back(spec):
    text = hf_json_text(spec)
    assert json.loads(text) == hf_json_dict(spec)
    assert hf_spec_from_dict("t.json", json.loads(text), name="p") == spec


@settings(max_examples=150, deadline=None)
@given(specs())
def test_vocab_json_and_merges_txt_round_trip(spec):
    if any(c in t for t in spec.full_vocab() for c in " \n\r"):
        return  # merges.txt cannot hold these; save_spec skips it (tested in test_formats_bundle)
    assert parse_vocab("v.json", vocab_json_text(spec.full_vocab())) == spec.full_vocab()
    assert parse_merges("m.txt", merges_text(spec.merges)) == spec.merges


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(min_size=1, max_size=8), unique=True, max_size=30))
def test_tiktoken_round_trip(extra):
    ranks = {bytes([b]): b for b in range(256)}
    for token in extra:
        ranks.setdefault(token, len(ranks))
    assert parse_tiktoken("r.tiktoken", tiktoken_text(ranks)) == ranks
