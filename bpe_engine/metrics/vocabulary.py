"""Every id of a tokenizer and the bytes it stands for: the vocabulary the audit and overlap walk.

The protocol promises ``vocab_size`` distinct ids and ``token_bytes(id)`` for each, not that they
run 0..n-1: cl100k and o200k leave ids unassigned below their special tokens, a rank file may skip
one. So ids are tried from 0 up, skipping those ``token_bytes`` refuses, until ``vocab_size`` have
been found (or a long run of refusals says the count was generous).

>>> from bpe_engine.catalog.openai import load_reference
>>> ids = vocabulary_ids(load_reference("o200k_base"))
>>> len(ids), ids[-3:]
(200000, [199997, 199999, 200018])
"""

from __future__ import annotations

from ..errors import BpeEngineError
from ..types import Tokenizer

MAX_GAP = 1 << 16
"""Refusals in a row after which no more ids are looked for."""


def vocabulary_ids(tokenizer: Tokenizer) -> list[int]:
    """The tokenizer's ids in increasing order (special tokens included)."""
    wanted = tokenizer.vocab_size
    found: list[int] = []
    i = misses = 0
    token_bytes = tokenizer.token_bytes
    while len(found) < wanted and misses < MAX_GAP:
        try:
            token_bytes(i)
        except (BpeEngineError, KeyError, IndexError, ValueError):
            misses += 1
        else:
            found.append(i)
            misses = 0
        i += 1
    return found


def vocabulary_bytes(tokenizer: Tokenizer, *, specials: bool = False) -> dict[bytes, int]:
    """bytes -> id of the vocabulary (the first id when two spell the same bytes); special tokens
    only when asked -- they are markup, not text."""
    skip = set() if specials else set(tokenizer.special_tokens.values())
    out: dict[bytes, int] = {}
    for i in vocabulary_ids(tokenizer):
        if i not in skip:
            out.setdefault(tokenizer.token_bytes(i), i)
    return out


__all__ = ["MAX_GAP", "vocabulary_bytes", "vocabulary_ids"]
