"""Loading .model files: the registry finds them, malformed ones fail with one clear line, the
committed protobuf descriptor matches the committed .proto, and loaded models are Tokenizers."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from bpe_engine.errors import TokenizerFileError
from bpe_engine.registry import load_tokenizer
from bpe_engine.sentencepiece import load_model
from bpe_engine.sentencepiece._descriptor import PROTO_SHA256
from bpe_engine.sentencepiece.model_proto import _model_proto_class
from bpe_engine.types import Tokenizer
from tests.oracles import require
from tests.sentencepiece_builds import sp_builds  # noqa: F401 - the fixture

pb = require("sentencepiece.sentencepiece_model_pb2")
PROTO = Path(__file__).parents[2] / "bpe_engine" / "sentencepiece" / "proto" / "sentencepiece_model.proto"


def _edited(src: Path, dst: Path, edit) -> Path:
    proto = pb.ModelProto()
    proto.ParseFromString(src.read_bytes())
    edit(proto)
    dst.write_bytes(proto.SerializeToString())
    return dst


def test_registry_loads_model_files_by_name(sp_builds, tmp_path):  # noqa: F811
    src = sp_builds["bpe-default"].path
    versioned = tmp_path / "tokenizer.model.v3"
    versioned.write_bytes(src.read_bytes())
    for path in (src, versioned):
        tok = load_tokenizer(str(path))
        assert isinstance(tok, Tokenizer)
        assert tok.encode("hello world") == load_model(src).encode("hello world")
    assert load_model(versioned).name == "tokenizer.model.v3" and load_model(src).name == "bpe-default"


def _break_unk(p):
    p.pieces[0].type = pb.ModelProto.SentencePiece.NORMAL


def _duplicate(p):
    p.pieces[5].piece = p.pieces[6].piece


def _no_bytes(p):
    del p.pieces[10]


def _empty_piece(p):
    p.pieces[7].piece = ""


def _word_model(p):
    p.trainer_spec.model_type = pb.TrainerSpec.WORD


def _score(value):
    def edit(p):
        p.pieces[300].score = value  # a normal piece: sentencepiece loads the model and its ids go astray (17 for 8)

    return edit


def _bad_charsmap(p):
    p.normalizer_spec.precompiled_charsmap = b"\x00\x04\x00\x00" + b"\x00" * 64


@pytest.mark.parametrize(
    ("source", "edit", "message"),
    [
        ("bpe-default", _break_unk, "defines no unknown piece"),
        ("bpe-default", _duplicate, "is already defined"),
        ("bpe-bytes-digits-identity", _no_bytes, "only 255 of the 256 byte pieces"),
        ("bpe-default", _empty_piece, "is empty"),
        ("uni-default", _word_model, "WORD models are not supported"),
        ("uni-default", _bad_charsmap, "normalization trie"),
        ("bpe-default", _score(float("nan")), r"piece 300 .* has the score nan; scores must be finite numbers"),
        ("uni-default", _score(float("inf")), r"piece 300 .* has the score inf; scores must be finite numbers"),
        ("uni-default", _score(float("-inf")), r"piece 300 .* has the score -inf"),
    ],
)
def test_malformed_models_fail_with_one_line(sp_builds, tmp_path, source, edit, message):  # noqa: F811
    path = _edited(sp_builds[source].path, tmp_path / "bad.model", edit)
    with pytest.raises(TokenizerFileError, match=message) as info:
        load_tokenizer(str(path))
    assert "\n" not in str(info.value) and str(path) in str(info.value)


@pytest.mark.parametrize("data", [b"", b"\xff" * 40, b"hello, this is text\n", b"\x0a\x05\x0a\x03abc"])
def test_files_that_are_not_models_fail_with_one_line(tmp_path, data):
    path = tmp_path / "x.model"
    path.write_bytes(data)
    with pytest.raises(TokenizerFileError) as info:
        load_model(path)
    assert "\n" not in str(info.value)


def test_truncated_models_never_load_silently(sp_builds, tmp_path):  # noqa: F811
    data = sp_builds["uni-default"].path.read_bytes()
    for cut in (1, 7, len(data) // 3, len(data) - 1):
        path = tmp_path / "cut.model"
        path.write_bytes(data[:cut])
        with pytest.raises(TokenizerFileError):
            load_model(path)


def test_descriptor_matches_the_committed_proto():
    assert hashlib.sha256(PROTO.read_bytes()).hexdigest() == PROTO_SHA256
    fields = {
        (message, name, int(number))
        for message, body in re.findall(r"\nmessage (\w+) \{(.*?)\n\}", PROTO.read_text(), re.S)
        for name, number in re.findall(r"^\s+(?:optional|repeated) [\w.]+ (\w+) = (\d+)", body, re.M)
    }
    pool = _model_proto_class().DESCRIPTOR.file.pool
    found = set()
    for m in ("TrainerSpec", "NormalizerSpec", "SelfTestData", "ModelProto"):
        message = pool.FindMessageTypeByName(f"sentencepiece.{m}")
        for descriptor in (message, *message.nested_types):  # the regex above sees nested fields too
            found |= {(m, f.name, f.number) for f in descriptor.fields}
    assert fields == found and len(found) > 60


def test_our_parser_and_sentencepiece_can_be_imported_together(sp_builds):  # noqa: F811
    # A generated *_pb2 would register sentencepiece_model.proto in protobuf's default pool and
    # clash with sentencepiece's own module; ours lives in a private pool.
    assert load_model(sp_builds["uni-default"].path).vocab_size == pb.ModelProto.FromString(
        sp_builds["uni-default"].path.read_bytes()
    ).pieces.__len__()
