"""T5-like tokenizer.json pipelines -- Precompiled charsmap + Metaspace + Unigram -- against HF.

The charsmap comes from a SentencePiece model trained here (nmt_nfkc rules); the tokenizer.json is
built the way ``transformers`` converts T5/ALBERT models. Needs the SentencePiece engine.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers

from tests.hf_oracle import TRICKY, assert_parity, ours, texts
from tests.oracles import require

spm = require("sentencepiece")


@pytest.fixture(scope="module")
def t5_like(alice_text: str, korean_text: str) -> Tokenizer:
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter((alice_text[:30000] + korean_text[:8000]).splitlines()),
        model_writer=model,
        vocab_size=800,
        model_type="unigram",
        normalization_rule_name="nmt_nfkc",
        byte_fallback=True,
        character_coverage=0.98,
    )
    proto = spm.SentencePieceProcessor(model_proto=model.getvalue())
    from sentencepiece import sentencepiece_model_pb2 as pb  # type: ignore[import-untyped]

    m = pb.ModelProto()
    m.ParseFromString(model.getvalue())
    pieces = [(proto.id_to_piece(i), proto.get_score(i)) for i in range(proto.get_piece_size())]
    tok = Tokenizer(models.Unigram(pieces, unk_id=proto.unk_id(), byte_fallback=True))
    tok.normalizer = normalizers.Sequence(
        [normalizers.Precompiled(m.normalizer_spec.precompiled_charsmap), normalizers.Replace(Regex(" {2,}"), " ")]
    )
    tok.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="always")
    tok.decoder = decoders.Sequence([decoders.Metaspace(), decoders.ByteFallback(), decoders.Fuse()])
    return tok


def test_t5_like_pipeline_equals_hf(t5_like: Tokenizer, alice_text: str, korean_text: str) -> None:
    tok = ours(t5_like)
    assert tok.encode(alice_text[:40000], special_mode="special") == t5_like.encode(alice_text[:40000]).ids
    assert tok.encode(korean_text, special_mode="special") == t5_like.encode(korean_text).ids
    for text in [*TRICKY, alice_text[9000:10000], korean_text[3000:3400]]:
        assert_parity(t5_like, tok, text)


@settings(max_examples=40)
@given(texts)
def test_t5_like_on_any_text(t5_like: Tokenizer, text: str) -> None:
    assert_parity(t5_like, _OURS.setdefault("t5", ours(t5_like)), text)


_OURS: dict[str, object] = {}
