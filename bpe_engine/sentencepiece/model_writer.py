"""Write a SentencePiece ``.model`` (a serialized ``ModelProto``) that ``sentencepiece`` loads.

The message classes are the reader's (:mod:`.model_proto`, SentencePiece's own
``sentencepiece_model.proto``). A trained model carries its pieces (piece, score, type), the
``trainer_spec`` it was trained with and the ``normalizer_spec`` (rule name, precompiled charsmap,
whitespace options), as ``TrainerInterface::Serialize`` writes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..atomic import atomic_write_bytes
from .model_proto import NormalizerSettings, PieceType, _model_proto_class

_MODEL_TYPES = {"unigram": 1, "bpe": 2, "word": 3, "char": 4}


def model_proto_bytes(
    pieces: Sequence[tuple[str, float]],
    types: Sequence[PieceType],
    *,
    model_type: str,
    trainer_spec: Mapping[str, Any],
    normalizer: NormalizerSettings,
) -> bytes:
    """Serialize a model. ``trainer_spec`` holds ``TrainerSpec`` fields by their proto names."""
    proto = _model_proto_class()()
    for (piece, score), kind in zip(pieces, types, strict=True):
        sp = proto.pieces.add()
        sp.piece = piece
        sp.score = score
        if kind is not PieceType.NORMAL:
            sp.type = int(kind)
    spec = proto.trainer_spec
    spec.model_type = _MODEL_TYPES[model_type]
    for name, value in trainer_spec.items():
        field = getattr(spec, name)
        if hasattr(field, "extend"):
            del field[:]
            field.extend(value)
        else:
            setattr(spec, name, value)
    norm = proto.normalizer_spec
    norm.name = normalizer.name
    norm.precompiled_charsmap = normalizer.charsmap
    norm.add_dummy_prefix = normalizer.add_dummy_prefix
    norm.remove_extra_whitespaces = normalizer.remove_extra_whitespaces
    norm.escape_whitespaces = normalizer.escape_whitespaces
    return proto.SerializeToString()


def write_model(path: str | Path, data: bytes) -> Path:
    """Write serialized model bytes atomically (a reader never sees half a file)."""
    atomic_write_bytes(path, data)
    return Path(path)
