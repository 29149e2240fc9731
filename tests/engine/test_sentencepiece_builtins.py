"""The four SentencePiece built-ins (fetched by ``bpe-explorer models fetch``): ids, decode and
n-best equal ``sentencepiece`` on the English and Korean corpora and on hypothesis text."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.registry import load_tokenizer
from bpe_engine.sentencepiece import SentencePieceTokenizer
from tests.oracles import require

spm = require("sentencepiece")

BUILTINS = ("mistral-v1", "mistral-v3", "sp-unigram-en", "sp-unigram-ja")


@cache
def _pair(path: str) -> tuple[SentencePieceTokenizer, object]:
    tok = load_tokenizer(path)
    assert isinstance(tok, SentencePieceTokenizer)
    return tok, spm.SentencePieceProcessor(model_file=path)


@pytest.mark.parametrize("name", BUILTINS)
def test_builtin_matches_sentencepiece_on_the_corpora(builtin_model_path, name, alice_text, korean_text):
    ours, ref = _pair(str(builtin_model_path(name)))
    lines = (alice_text + "\n" + korean_text).splitlines()
    assert [line for line, ids in zip(lines, ref.encode(lines), strict=True) if ours.encode(line) != ids] == []
    for whole in (alice_text[:50000], korean_text):
        ids = ref.encode(whole)
        assert ours.encode(whole) == ids
        assert ours.decode(ids) == ref.decode(ids)
    assert load_tokenizer(name).encode("hello 한국어") == ref.encode("hello 한국어")  # the built-in name resolves too


_TEXT = st.lists(
    st.one_of(
        st.text(max_size=6),
        st.sampled_from(
            ["  ", "\n", "\t", "한국어", "👩\u200d👩\u200d👧", "e\u0301", "漢字", "ｶﾞ", "①", "[INST]", "<s>", "</s>",
             "<unk>", "[REFERENCE_DOC_3]", " 123456", "\x00", "\x1b[31m", "\u202e", "\U00010348"]
        ),
    ),
    max_size=10,
).map("".join)


@settings(max_examples=150)
@given(name=st.sampled_from(BUILTINS), text=_TEXT)
def test_builtin_matches_sentencepiece_on_hypothesis_text(builtin_model_path, name, text):
    ours, ref = _pair(str(builtin_model_path(name)))
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")  # sentencepiece refuses lone surrogates
    ids = ref.encode(text)
    assert ours.encode(text) == ids
    assert list(ours.encode_detailed(text).ids) == ids
    assert ours.decode(ids) == ref.decode(ids)


@pytest.mark.parametrize("name", ["sp-unigram-en", "sp-unigram-ja"])
def test_builtin_unigram_nbest_matches_sentencepiece(builtin_model_path, name, alice_text):
    ours, ref = _pair(str(builtin_model_path(name)))
    for word in alice_text[10000:12000].split() + ["日本語の文章", "テスト"]:
        expected = ref.nbest_encode_as_immutable_proto(word, nbest_size=4)
        choice = ours.unigram_choice(word, 3)
        assert choice is not None
        got = [choice.best, *choice.alternatives]
        assert [list(s.ids) for s in got] == [[p.id for p in n.pieces] for n in expected.nbests]
        assert [s.score for s in got] == [n.score for n in expected.nbests]
