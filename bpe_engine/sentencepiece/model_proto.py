"""Read a SentencePiece ``.model`` file (a serialized ``ModelProto``) into plain, checked values.

Parsing is protobuf's own (the ``protobuf`` runtime, with message classes built from the
descriptor of SentencePiece's ``sentencepiece_model.proto`` in a *private* descriptor pool, so the
``sentencepiece`` package can be imported beside us). Then the same checks SentencePiece makes when
it loads a model (``ModelInterface::InitializePieces``) turn a malformed file into one
:class:`~bpe_engine.errors.TokenizerFileError` line instead of a wrong id later.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import TokenizerFileError
from ..text_files import read_input
from ._descriptor import FILE_DESCRIPTOR

MAX_MODEL_BYTES = 1 << 30  # protobuf itself stops at 2 GiB; no real model is near 1 GiB
MODEL_BYTES_PER_BYTE = 12
"""Memory per byte of a ``.model`` while it is parsed and its pieces tabled (protobuf's objects,
the piece strings, the lookup tables)."""


class PieceType(enum.IntEnum):
    """``ModelProto.SentencePiece.Type``: what a piece is and how encoders treat it."""

    NORMAL = 1
    UNKNOWN = 2
    CONTROL = 3
    USER_DEFINED = 4
    UNUSED = 5
    BYTE = 6


MODEL_TYPES = {1: "unigram", 2: "bpe", 3: "word", 4: "char"}


@dataclass(frozen=True, slots=True)
class NormalizerSettings:
    """``NormalizerSpec``: the charsmap blob and the whitespace options around it."""

    name: str
    charsmap: bytes
    add_dummy_prefix: bool
    remove_extra_whitespaces: bool
    escape_whitespaces: bool


@dataclass(frozen=True, slots=True)
class ModelFile:
    """Everything an encoder needs from a ``.model`` file, validated."""

    model_type: str
    pieces: tuple[str, ...]
    scores: tuple[float, ...]
    types: tuple[PieceType, ...]
    unk_id: int
    byte_fallback: bool
    treat_whitespace_as_suffix: bool
    split_digits: bool
    unk_surface: str
    bos_piece: str
    eos_piece: str
    normalizer: NormalizerSettings
    denormalizer: NormalizerSettings | None
    data: bytes = field(default=b"", repr=False, compare=False)
    """The serialized model as read: a save writes back the very bytes ``sentencepiece`` loads."""
    pad_piece: str = "<pad>"
    """The padding piece's spelling (a control piece only when the model was trained with ``pad_id``)."""


def read_model_file(path: str | Path) -> ModelFile:
    """Parse and check the model at ``path``; malformed files raise :class:`TokenizerFileError`."""
    p = Path(path)
    data = read_input(
        p,
        fail=lambda reason: TokenizerFileError(p, reason),
        expected="a SentencePiece .model file",
        per_byte=MODEL_BYTES_PER_BYTE,
        max_bytes=MAX_MODEL_BYTES,
        ways="use a smaller model, or run where more memory is free",
    )
    return parse_model_bytes(data, p)


def parse_model_bytes(data: bytes, path: str | Path = "<bytes>") -> ModelFile:
    """Parse a serialized ``ModelProto`` (``path`` only names the source in error messages)."""
    message = _model_proto_class()()
    try:
        message.ParseFromString(data)
    except Exception as exc:  # noqa: BLE001 - protobuf raises DecodeError, or RuntimeError from upb
        detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise TokenizerFileError(path, f"is not a SentencePiece model (protobuf could not parse it: {detail})") from None
    return replace(_checked(message, path), data=data)


@cache
def _model_proto_class() -> Any:
    """The ``ModelProto`` message class, built once in a private descriptor pool."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    pool.Add(descriptor_pb2.FileDescriptorProto.FromString(FILE_DESCRIPTOR))
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("sentencepiece.ModelProto"))


def _checked(message: Any, path: str | Path) -> ModelFile:
    trainer = message.trainer_spec
    model_type = MODEL_TYPES.get(trainer.model_type)
    if model_type is None:
        raise TokenizerFileError(path, f"has unknown model_type {trainer.model_type}; expected UNIGRAM, BPE, WORD or CHAR")
    if not message.pieces:
        raise TokenizerFileError(path, "holds no pieces: not a SentencePiece model, or an empty one")
    pieces, scores, types = [], [], []
    seen: set[str] = set()
    reserved: set[str] = set()
    unk_id = -1
    bytes_found: set[int] = set()
    for i, sp in enumerate(message.pieces):
        piece = sp.piece
        if not isinstance(piece, str):  # protobuf hands back bytes for a string that is not UTF-8
            raise TokenizerFileError(path, f"piece {i} is not valid UTF-8 text")
        try:
            kind = PieceType(sp.type)
        except ValueError:
            raise TokenizerFileError(path, f"piece {i} has unknown type {sp.type}") from None
        if not piece:
            raise TokenizerFileError(path, f"piece {i} is empty (SentencePiece requires every piece to be non-empty)")
        # NORMAL/USER_DEFINED/UNUSED share one table, the rest another (as SentencePiece keeps them).
        table = seen if kind in (PieceType.NORMAL, PieceType.USER_DEFINED, PieceType.UNUSED) else reserved
        if piece in table:
            raise TokenizerFileError(path, f"piece {i} {piece!r} is already defined")
        table.add(piece)
        if kind is PieceType.UNKNOWN:
            if unk_id >= 0:
                raise TokenizerFileError(path, f"piece {i} {piece!r} is a second unknown piece (only one is allowed)")
            unk_id = i
        if kind is PieceType.BYTE:
            if not trainer.byte_fallback:
                raise TokenizerFileError(path, f"byte piece {piece!r} is found although byte_fallback is false")
            byte = byte_of_piece(piece)
            if byte is None:
                raise TokenizerFileError(path, f"byte piece {piece!r} is not of the form <0xNN>")
            bytes_found.add(byte)
        score = float(sp.score)
        if not math.isfinite(score):  # sentencepiece loads it, and its encoder's comparisons then go astray
            raise TokenizerFileError(
                path, f"piece {i} {piece!r} has the score {score}; scores must be finite numbers (a damaged or hand-made model)"
            )
        pieces.append(piece)
        scores.append(score)
        types.append(kind)
    if unk_id < 0:
        raise TokenizerFileError(path, "defines no unknown piece (type UNKNOWN, usually <unk>)")
    for name in ("unk_surface", "bos_piece", "eos_piece", "pad_piece"):
        if not isinstance(getattr(trainer, name), str):
            raise TokenizerFileError(path, f"trainer_spec.{name} is not valid UTF-8 text")
    if trainer.byte_fallback and len(bytes_found) != 256:
        raise TokenizerFileError(path, f"byte_fallback is true but only {len(bytes_found)} of the 256 byte pieces exist")
    return ModelFile(
        model_type=model_type,
        pieces=tuple(pieces),
        scores=tuple(scores),
        types=tuple(types),
        unk_id=unk_id,
        byte_fallback=bool(trainer.byte_fallback),
        treat_whitespace_as_suffix=bool(trainer.treat_whitespace_as_suffix),
        split_digits=bool(trainer.split_digits),
        unk_surface=trainer.unk_surface,
        bos_piece=trainer.bos_piece or "<s>",
        eos_piece=trainer.eos_piece or "</s>",
        pad_piece=trainer.pad_piece or "<pad>",
        normalizer=_normalizer(message.normalizer_spec),
        denormalizer=(
            _normalizer(message.denormalizer_spec)
            if message.HasField("denormalizer_spec") and message.denormalizer_spec.precompiled_charsmap
            else None
        ),
    )


def _normalizer(spec: Any) -> NormalizerSettings:
    return NormalizerSettings(
        name=spec.name if isinstance(spec.name, str) else "",
        charsmap=bytes(spec.precompiled_charsmap),
        add_dummy_prefix=bool(spec.add_dummy_prefix),
        remove_extra_whitespaces=bool(spec.remove_extra_whitespaces),
        escape_whitespaces=bool(spec.escape_whitespaces),
    )


def byte_piece(byte: int) -> str:
    """The piece SentencePiece uses for one byte: ``<0x41>`` (two upper-case hex digits)."""
    return f"<0x{byte:02X}>"


_BYTE_PIECES = {byte_piece(b): b for b in range(256)}


def byte_of_piece(piece: str) -> int | None:
    """The byte a ``<0xNN>`` piece stands for, or None (only the exact upper-case form counts)."""
    return _BYTE_PIECES.get(piece)
