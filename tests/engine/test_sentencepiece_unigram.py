"""UnigramModel, the contract [hfjson] builds on: Hugging Face's Unigram by default (oracle: HF
``tokenizers``), SentencePiece's with ``kinds``/``float32`` (oracle: ``sentencepiece``), and the
n-best list with scores equal to SentencePiece's ``NBestEncode``."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.errors import ConfigError
from bpe_engine.sentencepiece import UnigramModel, read_model_file
from bpe_engine.sentencepiece.model_proto import byte_piece
from tests.oracles import require
from tests.sentencepiece_builds import sp_builds  # noqa: F401 - the fixture

spm = require("sentencepiece")
tokenizers = require("tokenizers")


@cache
def _trained(path: str) -> tuple[list[tuple[str, float]], int]:
    model = read_model_file(path)
    return list(zip(model.pieces, model.scores, strict=True)), model.unk_id


def _hf(pieces: list[tuple[str, float]], unk_id: int | None, byte_fallback: bool):
    return tokenizers.Tokenizer(tokenizers.models.Unigram(pieces, unk_id, byte_fallback))


@pytest.mark.parametrize("name", ["uni-default", "uni-bytes-digits-identity", "uni-bytes-nfkc-cf"])
def test_default_semantics_equal_hugging_face_unigram(sp_builds, name, alice_text, korean_text):  # noqa: F811
    pieces, unk_id = _trained(str(sp_builds[name].path))
    byte_fallback = any(p == byte_piece(0) for p, _s in pieces)
    ours = UnigramModel(pieces, unk_id=unk_id, byte_fallback=byte_fallback)
    hf = _hf(pieces, unk_id, byte_fallback)
    words = {"▁" + w for w in (alice_text[:20000] + korean_text[:8000] + " ☃☃ 👩\u200d👩 ①").split()}
    mismatches = [w for w in sorted(words) if ours.encode_piece(w) != hf.encode(w, add_special_tokens=False).ids]
    assert mismatches == []


@settings(max_examples=200)
@given(word=st.text(alphabet=st.sampled_from("abcdeABC ▁.,가한국ᄀ\u1161☃é\u0301"), max_size=12))
def test_hypothesis_words_equal_hugging_face(sp_builds, word):  # noqa: F811
    pieces, unk_id = _trained(str(sp_builds["uni-bytes-nfkc-cf"].path))
    ours = UnigramModel(pieces, unk_id=unk_id, byte_fallback=True)
    assert ours.encode_piece(word) == _hf(pieces, unk_id, True).encode(word, add_special_tokens=False).ids


@pytest.mark.parametrize("name", ["uni-default", "uni-user-symbols", "uni-bytes-digits-identity"])
def test_nbest_lists_and_scores_equal_sentencepiece(sp_builds, name, alice_text, korean_text):  # noqa: F811
    path = str(sp_builds[name].path)
    model = read_model_file(path)
    ours = UnigramModel(
        list(zip(model.pieces, model.scores, strict=True)), unk_id=model.unk_id,
        byte_fallback=model.byte_fallback, kinds=model.types, float32=True,
    )
    ref = spm.SentencePieceProcessor(model_file=path)
    for word in (alice_text[5000:9000] + korean_text[:1500]).split()[:400] + ["Alice's", "대한민국의", "☃x☃"]:
        normalized = ref.normalize(word)
        expected = ref.nbest_encode_as_immutable_proto(word, nbest_size=6)
        got = ours.nbest(normalized, 6)
        assert [ids for ids, _score in got] == [[p.id for p in n.pieces] for n in expected.nbests]
        assert [score for _ids, score in got] == [n.score for n in expected.nbests]


def test_nbest_is_best_first_and_starts_with_viterbi():
    m = UnigramModel([("<unk>", 0.0), ("a", -1.0), ("b", -1.2), ("ab", -2.5), ("ba", -1.0)], unk_id=0)
    results = m.nbest("aba", 10)
    assert results[0][0] == m.encode_piece("aba") == [1, 4]
    scores = [s for _ids, s in results]
    assert scores == sorted(scores, reverse=True)
    assert len({tuple(ids) for ids, _s in results}) == len(results) == 3  # a|ba, a|b|a, ab|a
    assert m.nbest("", 3) == [([], 0.0)]


def test_unknown_characters_without_an_unknown_piece_raise():
    m = UnigramModel([("a", -1.0)], unk_id=None)
    assert m.encode_piece("aa") == [0, 0]
    with pytest.raises(ConfigError, match="no unknown piece"):
        m.encode_piece("ab")
    with pytest.raises(ConfigError, match="outside"):
        UnigramModel([("a", -1.0)], unk_id=3)


def test_unknown_runs_fuse_or_fall_back_to_bytes():
    pieces = [("<unk>", 0.0), ("a", -1.0)] + [(byte_piece(b), 0.0) for b in range(256)]
    assert UnigramModel(pieces[:2], unk_id=0).encode_piece("a☃☃a") == [1, 0, 1]
    with_bytes = UnigramModel(pieces, unk_id=0, byte_fallback=True)
    assert with_bytes.encode_piece("☃") == [2 + b for b in "☃".encode()]
