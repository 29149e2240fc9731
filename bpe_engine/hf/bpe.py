"""HF's ``BPE`` model: merge ranks, plus the options HF files use (``models/bpe/model.rs``).

A piece is split into characters; a continuing-subword prefix goes on every character but the
first, an end-of-word suffix on the last. A character missing from the vocabulary becomes its
``<0xNN>`` byte tokens (``byte_fallback``, when all of them exist), else ``unk_token`` (consecutive
unknowns fused into one with ``fuse_unk``), else it is dropped -- all as HF does. Then the merges
apply, lowest rank first, leftmost on ties, through the one merge loop of
:mod:`bpe_engine.bpe.encode`. ``ignore_merges`` first looks the whole piece up in the vocabulary.

Pieces arrive as the model's own strings (``Ġthe`` after ByteLevel, ``▁the`` after Metaspace). A
byte-level model whose alphabet holds all 256 byte characters can take the raw text piece instead
(``raw_bytes=True``): its symbols are then the piece's UTF-8 bytes, the very same ids, without
building the GPT-2 string; :mod:`.pipeline` uses that on its fast path.

:meth:`HfBpeModel.tokenize` also returns each token's character span in the piece (for offsets).
It runs its own small leftmost-lowest merge loop that carries symbol lengths, because the shared
loops return ids only (for speed); ``tests/test_hf_models.py`` checks both give the same ids.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import repeat
from operator import add, mul

from ..bpe.encode import NEVER, PieceCache, merge_pair_ranks
from ..core.byte_table import BYTE_CHARS, bytes_to_token_str
from ..errors import ConfigError
from ..types import Family

Symbol = tuple[int, int]  # (id, length in UTF-8 bytes of the piece)


class HfBpeModel:
    """A HF BPE model over a validated vocabulary and merge list (see the module docstring)."""

    family: Family = "bpe"

    def __init__(
        self,
        vocab: Mapping[str, int],
        merges: Sequence[tuple[str, str]],
        *,
        unk_token: str | None = None,
        continuing_subword_prefix: str | None = None,
        end_of_word_suffix: str | None = None,
        fuse_unk: bool = False,
        byte_fallback: bool = False,
        ignore_merges: bool = False,
    ) -> None:
        self.vocab = dict(vocab)
        self.id_to_token = {i: t for t, i in self.vocab.items()}
        self.merges = merges if isinstance(merges, list) else list(merges)
        self.unk_token = unk_token
        self.unk_id = self.vocab.get(unk_token) if unk_token is not None else None
        self.prefix = continuing_subword_prefix or ""
        self.suffix = end_of_word_suffix or ""
        self.fuse_unk = fuse_unk
        self.byte_fallback = byte_fallback
        self.ignore_merges = ignore_merges
        self.stride = max(max(self.vocab.values(), default=0) + 1, 1)
        # All in C-level map/zip: 65k merges in a few tens of milliseconds. A token missing from the
        # vocabulary raises KeyError here (the loader then names it).
        get, stride, cut = self.vocab.__getitem__, self.stride, len(self.prefix)
        left_str, right_str = zip(*self.merges) if self.merges else ((), ())
        lefts = map(get, left_str)
        rights = map(get, right_str)
        # a pair listed twice keeps its last rank (HF builds a hash map from the list)
        keys = map(add, map(mul, lefts, repeat(stride)), rights)
        self.pair_rank: dict[int, int] = dict(zip(keys, range(len(self.merges))))
        # HF strips the prefix off the right part unconditionally; the loader checks it is there.
        tails = [b[cut:] for b in right_str] if cut else right_str
        self.new_id: list[int] = list(map(get, map(str.__add__, left_str, tails)))
        self.byte_ids = [self.vocab.get(BYTE_CHARS[b]) for b in range(256)]
        self.fallback_ids = [self.vocab.get(f"<0x{b:02X}>") for b in range(256)]
        self.limit = NEVER
        self.raw_bytes_ok = None not in self.byte_ids and not self.prefix and not self.suffix
        self._caches()

    def _caches(self) -> None:
        self._cache: PieceCache[tuple[int, ...]] = PieceCache(self._encode_piece)
        self._raw_cache: PieceCache[tuple[int, ...]] = PieceCache(self._encode_raw)
        self._span_cache: PieceCache[tuple[tuple[int, int, int], ...]] = PieceCache(self._tokenize)

    def with_merge_limit(self, k: int) -> HfBpeModel:
        """The same model using only its first ``k`` merges (tables shared, fresh caches)."""
        view = object.__new__(HfBpeModel)
        view.__dict__.update(self.__dict__)
        view.limit = NEVER if k >= len(self.merges) else max(k, 0)
        view._caches()
        return view

    # -- ids ---------------------------------------------------------------------------------
    def encode_piece(self, piece: str) -> tuple[int, ...]:
        """Ids of one piece in the model's alphabet (cached)."""
        return self._cache[piece]

    def encode_raw(self, text: str) -> tuple[int, ...]:
        """Ids of one *unmapped* text piece of a byte-level model (``raw_bytes_ok`` only)."""
        return self._raw_cache[text]

    def _encode_piece(self, piece: str) -> tuple[int, ...]:
        if not piece:
            return ()
        if self.ignore_merges:
            whole = self.vocab.get(piece)
            if whole is not None:
                return (whole,)
        ids = [i for i, _ in self._symbols(piece)]
        return tuple(merge_pair_ranks(ids, self.pair_rank, self.new_id, self.stride, self.limit)) if len(ids) > 1 else tuple(ids)

    def _encode_raw(self, text: str) -> tuple[int, ...]:
        data = text.encode("utf-8", "surrogatepass")
        if self.ignore_merges:
            whole = self.vocab.get(bytes_to_token_str(data))
            if whole is not None:
                return (whole,)
        ids: list[int] = list(map(self.byte_ids.__getitem__, data))  # type: ignore[arg-type]  # raw_bytes_ok: no byte id is None
        return tuple(merge_pair_ranks(ids, self.pair_rank, self.new_id, self.stride, self.limit)) if len(ids) > 1 else tuple(ids)

    def _symbols(self, piece: str) -> list[Symbol]:
        """HF ``merge_word`` before merging: one symbol per known character, byte tokens, or unk."""
        vocab, prefix, suffix = self.vocab, self.prefix, self.suffix
        out: list[Symbol] = []
        unk: list[int] | None = None  # [id, bytes] of a pending unknown
        last = len(piece) - 1
        for k, ch in enumerate(piece):
            size = len(ch.encode("utf-8", "surrogatepass"))
            s = (prefix if k and prefix else "") + ch + (suffix if k == last else "")
            token_id = vocab.get(s)
            if token_id is not None:
                if unk is not None:
                    out.append((unk[0], unk[1]))
                    unk = None
                out.append((token_id, size))
                continue
            if self.byte_fallback:
                fallback = [self.fallback_ids[b] for b in s.encode("utf-8", "surrogatepass")]
                if None not in fallback:
                    out += [(i, 1) for i in fallback]  # type: ignore[misc]  # None not in it (mypy cannot narrow items)
                    continue
            if self.unk_token is not None:
                unk_id = self.unk_id
                if unk_id is None:
                    raise ConfigError(
                        f"unk_token {self.unk_token!r} is not in the vocabulary, and {ch!r} needs it "
                        "(Hugging Face fails on this text too); add the token to model.vocab"
                    )
                if unk is not None and self.fuse_unk:
                    unk[1] += size
                    continue
                if unk is not None:
                    out.append((unk[0], unk[1]))
                unk = [unk_id, size]
        if unk is not None:
            out.append((unk[0], unk[1]))
        return out

    # -- offsets -------------------------------------------------------------------------------
    def tokenize(self, piece: str) -> tuple[tuple[int, int, int], ...]:
        """``(id, start, end)`` per token, with ``[start, end)`` in *characters* of ``piece`` (cached)."""
        return self._span_cache[piece] if piece else ()

    def _tokenize(self, piece: str) -> tuple[tuple[int, int, int], ...]:
        if self.ignore_merges and piece in self.vocab:
            return ((self.vocab[piece], 0, len(piece)),)
        symbols = [list(s) for s in self._symbols(piece)]
        pair_rank, new_id, stride, limit = self.pair_rank, self.new_id, self.stride, self.limit
        while len(symbols) > 1:
            ranks = [pair_rank.get(a[0] * stride + b[0], NEVER) for a, b in zip(symbols, symbols[1:])]
            best = min(ranks)
            if best >= limit or best == NEVER:
                break
            i = ranks.index(best)
            symbols[i] = [new_id[best], symbols[i][1] + symbols[i + 1][1]]
            del symbols[i + 1]
        return _char_spans(piece, [(i, n) for i, n in symbols])

    # -- vocabulary ----------------------------------------------------------------------------
    def token_to_id(self, token: str) -> int | None:
        return self.vocab.get(token)


def _char_spans(piece: str, symbols: list[tuple[int, int]]) -> tuple[tuple[int, int, int], ...]:
    """Byte-length symbols -> character spans (a byte token inside a character spans all of it)."""
    char_of_byte: list[int] = []
    for k, ch in enumerate(piece):
        char_of_byte += [k] * len(ch.encode("utf-8", "surrogatepass"))
    out = []
    pos = 0
    for token_id, n in symbols:
        start, end = pos, pos + n
        pos = end
        out.append((token_id, char_of_byte[start], char_of_byte[end - 1] + 1 if end > start else char_of_byte[start]))
    return tuple(out)
