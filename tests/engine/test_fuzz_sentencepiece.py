"""SentencePiece .model files in the shared loader fuzz harness: random bytes, cut and flipped
bytes of real models, and models whose protobuf fields are changed (piece types and strings, NaN
and infinite scores, model types, byte fallback, a scrambled normalization trie) load with one
clear error or as a tokenizer that encodes and decodes anything, within the harness's budgets."""

from __future__ import annotations

import io
import math
import tempfile
from functools import cache
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.registry import load_tokenizer
from tests.fuzz_loaders import check_load, random_bytes
from tests.oracles import require

spm = require("sentencepiece")
pb = require("sentencepiece.sentencepiece_model_pb2")

FUZZ = settings(max_examples=40)
_TEXT = ["low lower lowest newer newest wider widest", "한국어 텍스트 한국 국어", "ｆｕｌｌ ① ﬁ e\u0301 12345"] * 30


@cache
def _model(kind: str) -> bytes:
    """A tiny valid model: BPE with byte fallback and no charsmap, or Unigram with nmt_nfkc."""
    buffer = io.BytesIO()
    options = dict(sentence_iterator=iter(_TEXT), model_writer=buffer, minloglevel=2, num_threads=1, hard_vocab_limit=False)
    if kind == "bpe":
        options.update(model_type="bpe", vocab_size=400, byte_fallback=True, normalization_rule_name="identity",
                       user_defined_symbols=["<sep>"], control_symbols=["<ctl>"])
    else:  # a small custom rule set: a real trie to scramble, quick to load
        rules = Path(tempfile.mkdtemp(prefix="fuzz-rules-")) / "rules.tsv"
        rules.write_text("41\t61\nFF01\t21\n2460\t31 29\n65 301\tE9\n", encoding="utf-8")
        options.update(model_type="unigram", vocab_size=80, normalization_rule_tsv=str(rules))
    spm.SentencePieceTrainer.train(**options)
    return buffer.getvalue()


def _load_bytes(data: bytes):
    path = Path(tempfile.mkdtemp(prefix="fuzz-spm-")) / "x.model"
    path.write_bytes(data)
    return lambda: load_tokenizer(str(path))


@FUZZ
@given(kind=st.sampled_from(["bpe", "unigram"]), data=st.data())
def test_cut_and_flipped_bytes_of_real_models(kind, data) -> None:
    blob = bytearray(_model(kind))
    if data.draw(st.booleans()):
        blob = blob[: data.draw(st.integers(0, len(blob)))]
    for _ in range(data.draw(st.integers(0, 6))):
        if blob:
            blob[data.draw(st.integers(0, len(blob) - 1))] = data.draw(st.integers(0, 255))
    check_load(_load_bytes(bytes(blob)))


@FUZZ
@given(data=random_bytes())
def test_random_bytes(data) -> None:
    check_load(_load_bytes(data))


_SCORES = st.one_of(st.floats(allow_nan=True, allow_infinity=True, width=32), st.sampled_from([0.0, -1e30, 1e30, math.nan]))
_PIECES = st.one_of(st.text(max_size=4), st.sampled_from(["", "<unk>", "<0x41>", "<0xZZ>", "▁", "▁▁", "a", "<s>"]))


@FUZZ
@given(kind=st.sampled_from(["bpe", "unigram"]), data=st.data())
def test_models_with_changed_fields(kind, data) -> None:
    proto = pb.ModelProto.FromString(_model(kind))
    for _ in range(data.draw(st.integers(1, 5))):
        field = data.draw(st.sampled_from(["type", "piece", "score", "model_type", "byte_fallback", "charsmap", "flags", "drop"]))
        i = data.draw(st.integers(0, len(proto.pieces) - 1)) if len(proto.pieces) else 0
        if field == "type" and proto.pieces:
            proto.pieces[i].type = data.draw(st.sampled_from([1, 2, 3, 4, 5, 6]))
        elif field == "piece" and proto.pieces:
            proto.pieces[i].piece = data.draw(_PIECES)
        elif field == "score" and proto.pieces:
            proto.pieces[i].score = data.draw(_SCORES)
        elif field == "model_type":
            proto.trainer_spec.model_type = data.draw(st.sampled_from([1, 2, 3, 4]))
        elif field == "byte_fallback":
            proto.trainer_spec.byte_fallback = not proto.trainer_spec.byte_fallback
        elif field == "charsmap":
            blob = bytearray(proto.normalizer_spec.precompiled_charsmap or _charsmap())
            for _ in range(data.draw(st.integers(1, 20))):
                blob[data.draw(st.integers(0, len(blob) - 1))] = data.draw(st.integers(0, 255))
            proto.normalizer_spec.precompiled_charsmap = bytes(blob)
        elif field == "flags":
            spec = proto.normalizer_spec
            spec.add_dummy_prefix, spec.remove_extra_whitespaces, spec.escape_whitespaces = data.draw(
                st.tuples(st.booleans(), st.booleans(), st.booleans())
            )
            proto.trainer_spec.treat_whitespace_as_suffix = data.draw(st.booleans())
            proto.trainer_spec.unk_surface = data.draw(st.text(max_size=3))
        elif field == "drop" and proto.pieces:
            del proto.pieces[i]
    check_load(_load_bytes(proto.SerializeToString()))


def _charsmap() -> bytes:
    return pb.ModelProto.FromString(_model("unigram")).normalizer_spec.precompiled_charsmap
