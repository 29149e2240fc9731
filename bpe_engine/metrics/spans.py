"""Texts encoded exactly, with every token's byte span, at the speed of ``encode``.

``encode_detailed`` names and places every token in Python: right, but it took ``metrics
--parallel`` 9 minutes over FLORES-200. Most figures need only the ids and where each token sits,
and for most tokenizers that follows from the ids: the tokens' bytes, laid end to end, *are* the
text's UTF-8 (byte-level BPE on its fast exact path, :mod:`bpe_engine.bpe.tiktoken_bridge`), so
token ``i`` covers ``[sum of lengths before i, ... + its length)``. :class:`PartEncoder` encodes
with ``encode`` (post-processor tokens left out, as :func:`.encoded.plain_ids`), checks that the
bytes do spell the text (or a space and the text: SentencePiece's dummy prefix), and where they do
not, looks again at that part: tokens that spell the declared normal form of the part (Qwen's NFC)
are mapped back as ``encode_detailed`` maps them; otherwise (a lowercasing front end, an unknown
piece) ``encode_detailed`` itself places them. The ids are ``encode``'s either way.

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
from itertools import chain
from dataclasses import dataclass

import numpy as np

from ..core.normalizer import align
from ..errors import BpeEngineError
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
    """One tokenizer's exact encoder for :class:`EncodedParts`.

    Each id's bytes are asked for once and kept in one growing buffer (``_buffer``, with each id's
    offset and length), so checking that the tokens spell the text is a vector gather and compare,
    not a Python step per token."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        self._offset = np.zeros(0, dtype=np.int64)
        self._size = np.zeros(0, dtype=np.int64)  # -2: not asked yet; -1: no bytes (an unknown piece)
        self._buffer = np.zeros(1 << 16, dtype=np.uint8)
        self._used = 0

    def encode(self, parts: Sequence[str]) -> EncodedParts:
        each = [plain_ids(self.tokenizer, part) for part in parts]
        counts = tuple(map(len, each))
        ids = np.fromiter(chain.from_iterable(each), dtype=np.int64, count=sum(counts))
        raws = [part.encode("utf-8", "surrogatepass") for part in parts]
        spelled = self._spans(ids, b"".join(raws))
        if spelled is None:  # some part is not spelled by its tokens: place that part's tokens one by one
            starts, ends = [], []
            offset = at = 0
            for part, raw, n in zip(parts, raws, counts, strict=True):
                a, b = self._spans(ids[at : at + n], raw) or self._normalized_spans(part, ids[at : at + n]) or self._detailed_spans(part)
                starts.append(a + offset)
                ends.append(b + offset)
                offset += len(raw)
                at += n
            empty = np.zeros(0, dtype=np.int64)
            spelled = (np.concatenate(starts) if starts else empty, np.concatenate(ends) if ends else empty)
        return EncodedParts(ids, spelled[0], spelled[1], sum(map(len, raws)), counts)

    def _spans(self, ids: np.ndarray, raw: bytes) -> tuple[np.ndarray, np.ndarray] | None:
        """The spans of tokens whose bytes, laid end to end, are ``raw`` -- or a space and ``raw``:
        the space a SentencePiece model puts before the text (``add_dummy_prefix``), which then
        covers nothing -- else None."""
        if (ids < 0).any():  # UNKNOWN_ID: a piece with no bytes
            return None
        size = self._sizes(ids)
        if (size < 0).any():
            return None
        end = np.cumsum(size)
        total = int(end[-1]) if len(end) else 0
        shift = total - len(raw)
        if shift not in (0, 1):
            return None
        start = end - size
        # the tokens' bytes laid end to end: byte j of token i is buffer[offset[i] + j]
        spelled = self._buffer[np.arange(total) + np.repeat(self._offset[ids] - start, size)]
        text = np.frombuffer(raw, dtype=np.uint8)
        if shift and not (spelled[0] == 0x20 and np.array_equal(spelled[1:], text)):
            return None
        if not shift and not np.array_equal(spelled, text):
            return None
        return (np.maximum(start - shift, 0), end - shift) if shift else (start, end)

    def _sizes(self, ids: np.ndarray) -> np.ndarray:
        """Each id's byte length (-1 for none), asking the tokenizer only about ids not seen before."""
        top = int(ids.max(initial=-1)) + 1
        if top > len(self._size):
            grow = max(top, 2 * len(self._size))
            self._size = np.concatenate((self._size, np.full(grow - len(self._size), -2, dtype=np.int64)))
            self._offset = np.concatenate((self._offset, np.zeros(grow - len(self._offset), dtype=np.int64)))
        new = np.unique(ids[self._size[ids] == -2])
        if len(new):
            found = [self._token_bytes(i) for i in new.tolist()]
            size = np.array([-1 if b is None else len(b) for b in found], dtype=np.int64)
            data = np.frombuffer(b"".join(b for b in found if b is not None), dtype=np.uint8)
            if self._used + len(data) > len(self._buffer):
                grown = np.zeros(max(2 * len(self._buffer), self._used + len(data)), dtype=np.uint8)
                grown[: self._used] = self._buffer[: self._used]
                self._buffer = grown
            self._buffer[self._used : self._used + len(data)] = data
            self._offset[new] = self._used + np.cumsum(np.maximum(size, 0)) - np.maximum(size, 0)
            self._size[new] = size
            self._used += len(data)
        return self._size[ids]

    def _token_bytes(self, token_id: int) -> bytes | None:
        try:
            return self.tokenizer.token_bytes(token_id)
        except (BpeEngineError, KeyError, IndexError, ValueError):
            return None

    def _normalized_spans(self, part: str, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """For a tokenizer that declares a normal form (Qwen's NFC): tokens that spell the
        normalized part, their spans mapped back into the part as ``encode_detailed`` maps them
        (:func:`bpe_engine.core.normalizer.align`)."""
        form = self.tokenizer.capabilities.normalizer
        if form is None:
            return None
        aligned = align(part, None, form)
        if aligned is None:
            return None
        spans = self._spans(ids, aligned.normalized.encode("utf-8", "surrogatepass"))
        if spans is None:
            return None
        mapped = np.array(aligned.spans_in_source(list(zip(spans[0].tolist(), spans[1].tolist()))) or np.zeros((0, 2)), dtype=np.int64)
        return mapped[:, 0], mapped[:, 1]

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
