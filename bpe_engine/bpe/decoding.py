"""Ids back to tokens, bytes and text: the half of a ``BpeTokenizer`` that needs only its id tables.

:class:`BpeDecoder` is the base of :class:`~bpe_engine.bpe.model.BpeTokenizer`; everything here
reads the tables the tokenizer sets up (``_table``, ``_id_bytes`` with the special tokens' bytes,
``_special_ids``) and its pre-tokenizer, whose markers decoding undoes. Ids follow
:mod:`bpe_engine.token_ids`: a negative or unknown id is refused with a clear error, never
indexed from the end. Byte-level models decode their exact bytes; character-level ones join the
tokens' text and turn ``▁`` back into spaces and ``</w>`` into word breaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from ..errors import ConfigError
from ..pretokenizers import PreTokenizer
from ..token_ids import check_decode_ids
from ..types import UNKNOWN_ID
from .merge_table import MergeTable
from .rank_table import RankTable


class BpeDecoder:
    """Token lookups and decoding over the id tables a BPE tokenizer sets up."""

    name: str
    pre_tokenizer: PreTokenizer
    _table: RankTable | MergeTable
    _id_bytes: list[bytes | None]
    """id -> the bytes it stands for (special tokens' UTF-8 included; None: no such id)."""
    _special_ids: dict[int, str]

    @property
    def byte_level(self) -> bool:
        return self._table.byte_level

    def token_str(self, token_id: int) -> str:
        """The token in the model's alphabet (``Ġthe``, ``▁the``); a special token's own text."""
        special = self._special_ids.get(token_id)
        if special is not None:
            return special
        token = self._table.token_str(token_id)
        if token is None:
            raise self._bad_id(token_id)
        return token

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes the token stands for (UTF-8 of its text for character-level models)."""
        data = self._id_bytes[token_id] if 0 <= token_id < len(self._id_bytes) else None
        if data is None:
            raise self._bad_id(token_id)
        return data

    def decode_tokens_bytes(self, ids: Sequence[int]) -> list[bytes]:
        """Each token's bytes, like tiktoken's ``decode_tokens_bytes``.

        >>> from bpe_engine.catalog.openai import load_reference
        >>> load_reference("gpt2").decode_tokens_bytes([31373, 995])
        [b'hello', b' world']
        """
        return [self.token_bytes(i) for i in ids]

    def decode_bytes(self, ids: Sequence[int]) -> bytes:
        """The concatenated bytes of ``ids`` (byte-level models: the exact original text)."""
        check_decode_ids(ids, len(self._id_bytes), self.name)
        try:
            return b"".join(map(self._id_bytes.__getitem__, ids))  # type: ignore[arg-type]  # a hole (None): the TypeError below
        except TypeError:  # a hole in the id table (None)
            for i in ids:
                self.token_bytes(i)  # raises the clear error for the first bad id
            raise

    def decode(self, ids: Sequence[int], *, errors: Literal["replace", "strict"] = "replace") -> str:
        """Text of ``ids``. Byte-level: exact bytes decoded as UTF-8 (``errors="replace"`` puts
        U+FFFD where a token sequence stops inside a character). Character-level: tokens joined,
        then ``▁`` back to spaces and ``</w>`` to word breaks."""
        if self.byte_level:
            text = self.decode_bytes(ids).decode("utf-8", errors=errors)
            # a byte-level model over ▁-marked pieces carries the markers in its bytes
            return self.pre_tokenizer.decode_text(text) if self.pre_tokenizer.space_marker else text
        check_decode_ids(ids, len(self._id_bytes), self.name)
        return self.pre_tokenizer.decode_text("".join(map(self.token_str, ids)))

    def decode_with_offsets(self, ids: Sequence[int]) -> tuple[str, list[int]]:
        """The decoded text and each token's start character offset in it (like tiktoken).

        Where a token starts inside a character, its offset is that character's. Strict UTF-8.

        >>> from bpe_engine.catalog.openai import load_reference
        >>> load_reference("gpt2").decode_with_offsets([31373, 995])
        ('hello world', [0, 5])
        """
        if self.byte_level:
            offsets = []
            text_len = 0
            for token in self.decode_tokens_bytes(ids):
                offsets.append(max(0, text_len - (bool(token) and 0x80 <= token[0] < 0xC0)))
                text_len += sum(1 for c in token if not 0x80 <= c < 0xC0)
            return self.decode_bytes(ids).decode("utf-8", errors="strict"), offsets
        # character-level: markers become spaces token by token; decode_text then drops the
        # prepended ▁'s space (whitespace style) or trailing word breaks (end-of-word style).
        pre = self.pre_tokenizer
        pieces = []
        for i in ids:
            piece = self.token_str(i)
            if i not in self._special_ids:
                for marker in (pre.space_marker, pre.end_of_word_suffix):
                    if marker:
                        piece = piece.replace(marker, " ")
            pieces.append(piece)
        text = self.decode(ids)
        lead = 1 if pre.space_marker and "".join(pieces).startswith(" ") else 0
        offsets, pos = [], 0
        for piece in pieces:
            offsets.append(min(max(pos - lead, 0), len(text)))
            pos += len(piece)
        return text, offsets

    def _bad_id(self, token_id: Any) -> ConfigError:
        if token_id == UNKNOWN_ID:
            return ConfigError(f"id {UNKNOWN_ID} marks an unknown piece, which has no token in {self.name!r}")
        return ConfigError(f"token id {token_id!r} is not in tokenizer {self.name!r} (ids run 0..{len(self._id_bytes) - 1})")

