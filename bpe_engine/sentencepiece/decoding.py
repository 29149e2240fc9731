"""Ids back to text, as ``SentencePieceProcessor::Decode`` does it.

* control pieces vanish; the unknown piece becomes the model's ``unk_surface`` (`` ⁇ ``);
* ``▁`` becomes a space; the very first piece loses one leading ``▁`` when the model adds a dummy
  prefix (all leading ones are kept as spaces only when it does not remove extra whitespace);
* runs of byte pieces are decoded as UTF-8 where valid, each invalid byte as U+FFFD (one per
  byte, SentencePiece's rule -- not Python's "maximal subpart" replacement);
* a denormalizer charsmap, when the model has one, is applied to the whole result.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import ConfigError
from .model_proto import ModelFile, PieceType, byte_of_piece
from .spec_normalizer import SPACE, SpecNormalizer

REPLACEMENT = "\ufffd"


class SentencePieceDecoder:
    """Decoding rules of one model."""

    def __init__(self, model: ModelFile) -> None:
        self._pieces = model.pieces
        self._types = model.types
        self._unk_surface = model.unk_surface
        spec = model.normalizer
        self._strip_first = spec.add_dummy_prefix or spec.remove_extra_whitespaces
        self._strip_all = spec.remove_extra_whitespaces
        self._denormalizer = SpecNormalizer(model.denormalizer) if model.denormalizer is not None else None
        # Decode looks each piece up again by its text (reserved pieces first), as the C++ does.
        lookup: dict[str, int] = {}
        for i, (piece, kind) in enumerate(zip(model.pieces, model.types, strict=True)):
            if kind not in (PieceType.NORMAL, PieceType.USER_DEFINED, PieceType.UNUSED):
                lookup.setdefault(piece, i)
        self._reserved = lookup

    def decode(self, ids: Sequence[int], *, strict: bool = False) -> str:
        out: list[str] = []
        pending = bytearray()
        at_start = True  # no output yet and no leading-space piece consumed
        bos_ws_seen = False
        for tid in ids:
            piece = self._pieces[tid]
            kind = self._types[self._reserved.get(piece, tid)]
            if kind is PieceType.BYTE:
                pending.append(byte_of_piece(piece) or 0)
                continue
            if pending:
                out.append(_decode_bytes(bytes(pending), strict))
                pending.clear()
            if bos_ws_seen or any(out):
                at_start = False
            text, bos_ws_seen = self._piece_text(piece, kind, at_start)
            out.append(text)
        if pending:
            out.append(_decode_bytes(bytes(pending), strict))
        text = "".join(out)
        return self._denormalizer.normalize(text) if self._denormalizer is not None else text

    def _piece_text(self, piece: str, kind: PieceType, at_start: bool) -> tuple[str, bool]:
        if kind is PieceType.CONTROL:
            return "", False
        if kind is PieceType.UNKNOWN:
            return self._unk_surface, False
        consumed = False
        if at_start and self._strip_first and piece.startswith(SPACE):
            piece = piece[1:]
            consumed = not self._strip_all
        return piece.replace(SPACE, " "), consumed


def _decode_bytes(data: bytes, strict: bool) -> str:
    """UTF-8 where valid; each byte that starts no valid character is one U+FFFD."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        if strict:
            raise ConfigError("the byte pieces do not decode as UTF-8 (pass errors='replace' to see U+FFFD)") from None
    out: list[str] = []
    i = 0
    while i < len(data):
        lead = data[i]
        size = 1 if lead < 0xC0 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        chunk = data[i : i + size]
        try:
            out.append(chunk.decode("utf-8"))
            i += size
        except UnicodeDecodeError:
            out.append(REPLACEMENT)
            i += 1
    return "".join(out)
