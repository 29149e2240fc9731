"""How much of an encoding is not really the text: unknown tokens and byte-fallback tokens.

A tokenizer that turns a script it does not know into ``[UNK]`` gives few tokens -- and looks the
fairest of all in a language premium (bert-base-uncased came out "best" for Amharic, 95 % of it
``[UNK]``). One whose vocabulary lacks a character spells it as ``<0xNN>`` byte pieces (byte
fallback: Mistral, Llama 2), three or four tokens a character. Both say the vocabulary does not
cover the language; ``metrics`` and ``languages`` show these shares beside every count and flag a
premium built on them (:data:`UNRELIABLE_SHARE`). This module is the one place they are counted.

* unknown: the vocabulary's unknown token (``unk_id``) or :data:`~bpe_engine.types.UNKNOWN_ID` (a
  symbol a vocabulary without an unknown token cannot spell);
* byte fallback: the ``<0xNN>`` tokens of a tokenizer that declares ``capabilities.byte_fallback``
  (both SentencePiece and Hugging Face spell byte pieces so). Byte-level BPE (GPT-2, o200k) is not
  byte fallback: its byte tokens are its alphabet, and a character split over them is what the
  continued-word rate and bytes per token already show.

>>> from bpe_engine.registry import load_tokenizer
>>> bert = TokenShares.of(load_tokenizer("bert-base-uncased"))
>>> bert.count(load_tokenizer("bert-base-uncased").encode("hello ሰላም", add_special_tokens=False))
(1, 0)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import BpeEngineError
from ..types import UNKNOWN_ID, Tokenizer

UNRELIABLE_SHARE = 0.05
"""A premium or fertility whose tokens are more than 5 % unknown or byte fallback is flagged: the
count no longer measures how well the vocabulary spells the language."""

_BYTE_PIECE = re.compile(r"<0x[0-9A-Fa-f]{2}>")
_MAX_ID_GAP = 1 << 12


@dataclass(frozen=True, slots=True)
class TokenShares:
    """The ids that count as unknown and as byte fallback for one tokenizer."""

    unknown_ids: frozenset[int]
    byte_ids: frozenset[int]

    @classmethod
    def of(cls, tokenizer: Tokenizer) -> TokenShares:
        unknown = {UNKNOWN_ID} if tokenizer.unk_id is None else {UNKNOWN_ID, tokenizer.unk_id}
        return cls(frozenset(unknown), byte_fallback_ids(tokenizer))

    def count(self, ids: Sequence[int] | np.ndarray) -> tuple[int, int]:
        """``(unknown tokens, byte-fallback tokens)`` among ``ids``."""
        if not len(ids):
            return 0, 0
        array = np.asarray(ids, dtype=np.int64)
        unknown = int(np.isin(array, list(self.unknown_ids)).sum())
        byte = int(np.isin(array, list(self.byte_ids)).sum()) if self.byte_ids else 0
        return unknown, byte


def byte_fallback_ids(tokenizer: Tokenizer) -> frozenset[int]:
    """The ids of the ``<0xNN>`` pieces of a tokenizer that declares byte fallback (else none)."""
    if not tokenizer.capabilities.byte_fallback:
        return frozenset()
    found: set[int] = set()
    i = misses = 0
    while misses < _MAX_ID_GAP and len(found) < 256:
        try:
            token = tokenizer.token_str(i)
        except (BpeEngineError, KeyError, IndexError, ValueError):  # an id the vocabulary skips (as audit.ids)
            misses += 1
        else:
            misses = 0
            if len(token) == 6 and _BYTE_PIECE.fullmatch(token):
                found.add(i)
        i += 1
    return frozenset(found)


def share(part: int, whole: int) -> float | None:
    """``part / whole``, None for an empty whole."""
    return part / whole if whole else None


def unreliable(unknown: int, byte_fallback: int, tokens: int) -> bool:
    """True when unknown and byte-fallback tokens make up more than :data:`UNRELIABLE_SHARE`."""
    return bool(tokens) and (unknown + byte_fallback) / tokens > UNRELIABLE_SHARE


__all__ = ["UNRELIABLE_SHARE", "TokenShares", "byte_fallback_ids", "share", "unreliable"]
