"""The token/byte inspector's data: per-token details, partial characters, streaming decode.

Pure functions over :class:`~bpe_engine.types.Encoding`; the app and the CLI only render them.
"""

from __future__ import annotations

from .details import CharPiece, TokenDetail, iter_token_details, token_details
from .partial import PartialGroup, group_of_token, partial_flags, partial_groups, partial_share
from .utf8 import (
    ByteRole,
    StreamDecoder,
    StreamStep,
    byte_role,
    byte_roles,
    hex_bytes,
    iter_stream_decode,
    standalone_decode,
    stream_decode,
)

__all__ = [
    "ByteRole",
    "CharPiece",
    "PartialGroup",
    "StreamDecoder",
    "StreamStep",
    "TokenDetail",
    "byte_role",
    "byte_roles",
    "group_of_token",
    "hex_bytes",
    "iter_stream_decode",
    "iter_token_details",
    "partial_flags",
    "partial_groups",
    "partial_share",
    "standalone_decode",
    "stream_decode",
    "token_details",
]
