"""Texts encoded exactly, with every token's byte span, at the speed of ``encode``.

``encode_detailed`` names and places every token in Python: right, but it took ``metrics
--parallel`` 9 minutes over FLORES-200. Most figures need only the ids and where each token sits,
and for most tokenizers that follows from the ids: the tokens' bytes, laid end to end, *are* the
text's UTF-8 (byte-level BPE on its fast exact path, :mod:`bpe_engine.bpe.tiktoken_bridge`), so
token ``i`` covers ``[sum of lengths before i, ... + its length)``. :class:`PartEncoder` encodes
with ``encode`` (post-processor tokens left out, as :func:`.encoded.plain_ids`), checks that the
bytes do spell the text, and only where they do not (a normaliser changed it, a word-start marker,
an unknown piece) asks ``encode_detailed`` for that part. The ids are ``encode``'s either way.

Several parts (a declaration's articles, a file's slices) are each encoded on their own and laid end
to end: spans are offsets in the concatenation of the parts' UTF-8, so units and tokens of all parts
are counted in one vector pass (:func:`covered_by_several`).

>>> from bpe_engine.catalog.openai import load_reference
>>> enc = PartEncoder(load_reference("gpt2")).encode(["hello world", "한"])
>>> enc.ids.tolist(), enc.starts.tolist(), enc.ends.tolist(), enc.n_bytes
([31373, 995, 47991, 250], [0, 5, 11, 13], [5, 11, 13, 14], 14)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import BpeEngineError
from ..memo import Memo
from ..types import Tokenizer
from .encoded import added_tokens, plain_ids


@dataclass(frozen=True, slots=True)
class EncodedParts:
    """Ids and byte spans of parts laid end to end (``n_bytes``: their UTF-8 length in all).
    A byte-level token may cover part of a character (``한`` = 2 bytes + 1 byte in GPT-2), as in
    ``encode_detailed``'s spans."""

    ids: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    n_bytes: int
    part_tokens: tuple[int, ...] = ()
    """How many tokens each part has, in order."""


class PartEncoder:
    """One tokenizer's exact encoder for :class:`EncodedParts` (keeps each id's bytes once)."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        self._bytes: Memo[int, bytes | None] = Memo(self._token_bytes)
        self._size = np.zeros(0, dtype=np.int64)

    def _token_bytes(self, token_id: int) -> bytes | None:
        try:
            return self.tokenizer.token_bytes(token_id)
        except (BpeEngineError, KeyError, IndexError, ValueError):  # UNKNOWN_ID: no bytes to lay down
            return None

    def encode(self, parts: Sequence[str]) -> EncodedParts:
        each = [plain_ids(self.tokenizer, part) for part in parts]
        counts = tuple(map(len, each))
        ids = [i for part_ids in each for i in part_ids]
        raws = [part.encode("utf-8", "surrogatepass") for part in parts]
        n_bytes = sum(map(len, raws))
        spelled = self._spans(ids, b"".join(raws))
        if spelled is None:  # some part is not spelled by its tokens: place that part's tokens one by one
            starts, ends = [], []
            offset = 0
            for part, raw, part_ids in zip(parts, raws, each, strict=True):
                a, b = self._spans(part_ids, raw) or self._detailed_spans(part)
                starts.append(a + offset)
                ends.append(b + offset)
                offset += len(raw)
            empty = np.zeros(0, dtype=np.int64)
            spelled = (np.concatenate(starts) if starts else empty, np.concatenate(ends) if ends else empty)
        return EncodedParts(np.array(ids, dtype=np.int64), spelled[0], spelled[1], n_bytes, counts)

    def _spans(self, ids: list[int], raw: bytes) -> tuple[np.ndarray, np.ndarray] | None:
        """The spans of tokens whose bytes, laid end to end, are ``raw`` -- or a space and ``raw``:
        the space a SentencePiece model puts before the text (``add_dummy_prefix``), which then
        covers nothing -- else None."""
        pieces = list(map(self._bytes.__getitem__, ids))
        try:
            spelled = b"".join(pieces)  # type: ignore[arg-type]  # a None (no bytes) raises TypeError
        except TypeError:
            return None
        if spelled == raw:
            shift = 0
        elif len(spelled) == len(raw) + 1 and spelled[:1] == b" " and spelled[1:] == raw:
            shift = 1
        else:
            return None
        size = self._lengths(np.array(ids, dtype=np.int64))
        end = np.cumsum(size)
        if not shift:
            return end - size, end
        return np.maximum(end - size - shift, 0), end - shift

    def _lengths(self, ids: np.ndarray) -> np.ndarray:
        """Each id's byte length, from a table grown as new ids appear (one vector lookup per call)."""
        top = int(ids.max(initial=-1)) + 1
        if top > len(self._size):
            grown = np.full(max(top, 2 * len(self._size)), -1, dtype=np.int64)
            grown[: len(self._size)] = self._size
            self._size = grown
        missing = np.unique(ids[self._size[ids] < 0])
        for i in missing.tolist():
            self._size[i] = len(self._bytes[i] or b"")
        return self._size[ids]

    def _detailed_spans(self, part: str) -> tuple[np.ndarray, np.ndarray]:
        """Byte spans from ``encode_detailed``, post-processor tokens left out (the same tokens as
        :func:`plain_ids`)."""
        enc = self.tokenizer.encode_detailed(part, special_mode="text")
        drop = set(added_tokens(enc))
        spans = np.array([s for k, s in enumerate(enc.byte_spans) if k not in drop] or np.zeros((0, 2)), dtype=np.int64)
        return spans[:, 0], spans[:, 1]


def byte_offsets(text: str) -> np.ndarray:
    """``offsets[i]``: the UTF-8 offset of character ``i`` of ``text`` (``offsets[len(text)]`` its length)."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    widths = 1 + (codes >= 0x80).astype(np.int64) + (codes >= 0x800) + (codes >= 0x10000)
    return np.concatenate(([0], np.cumsum(widths)))


def covered_by_several(unit_starts: np.ndarray, unit_ends: np.ndarray, encoded: EncodedParts) -> int:
    """How many units (byte spans) overlap two or more tokens: Rust et al.'s continued words."""
    if not len(unit_starts):
        return 0
    keep = encoded.ends > encoded.starts
    starts, ends = np.sort(encoded.starts[keep]), np.sort(encoded.ends[keep])
    # tokens overlapping [us, ue): those starting before ue, less those ending by us (which start before it too)
    overlapping = np.searchsorted(starts, unit_ends, "left") - np.searchsorted(ends, unit_starts, "right")
    return int(np.count_nonzero(overlapping >= 2))


__all__ = ["EncodedParts", "PartEncoder", "byte_offsets", "covered_by_several"]
