"""The merge loops: turn one pre-tokenized piece into token ids, fast, in pure Python.

Two rules decide which adjacent pair merges next, and each has a short-piece and a long-piece
algorithm (same result, different cost):

- **byte ranks** (tiktoken ``.tiktoken`` tables): the pair whose *concatenated bytes* has the
  lowest rank; the merged token's id is that rank. :func:`merge_byte_ranks`.
- **merge ranks** (trained merge lists, Hugging Face semantics): the pair that is itself the
  lowest-ranked *merge*; the merged id comes from the merge table (two merges may share one
  id when they spell the same string). :func:`merge_pair_ranks`.

Ties go to the leftmost pair in both rules, as in tiktoken and HF ``Word::merge_all``.

Short pieces keep a list of pair ranks and update only the two neighbours of each merge: ``min``
and ``list.index`` run in C, so this beats anything cleverer below ~32 symbols. Long pieces
(``"x" * 1_000_000``) use a heap of ``rank * n + position`` over a doubly linked list:
O(n log n), so doubling the length costs ~2.1x, where the list version is quadratic.

Pieces repeat a lot in natural text, so :class:`PieceCache` memoises piece -> ids (as tuples:
cheaper to flatten and invisible to the cyclic GC); a cache hit is one dict lookup done in C via
``map(cache.__getitem__, pieces)``.

>>> ranks = {b"a": 0, b"b": 1, b"ab": 2, b"ba": 3}
>>> merge_byte_ranks(b"aba", ranks)  # "ab" (rank 2) beats "ba" (rank 3); "aba" is no token
[2, 0]
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from ..display import visible_text
from ..errors import ConfigError, UnknownSymbolError
from ..token_ids import id_problem
from ..types import UNKNOWN_ID
from .byte_table import BYTE_CHARS, bytes_to_token_str, token_str_to_bytes

NEVER = 1 << 62
"""Sentinel rank: larger than any real rank, so ``min`` never picks it before a real merge."""

LONG_PIECE = 32
"""Symbols from which the heap algorithm is used. Measured on cl100k pieces of en_10mb/ko_all:
the list loop wins by ~10% below 14 bytes, the two tie at 14-32, the heap wins from ~32 up
(2x at 128, 5x at 512)."""

SINGLE_BYTES: tuple[bytes, ...] = tuple(bytes([b]) for b in range(256))

V = TypeVar("V")


# -- byte ranks (tiktoken) -----------------------------------------------------------------------
def merge_byte_ranks(data: bytes, ranks: dict[bytes, int], limit: int = NEVER) -> list[int]:
    """Encode ``data`` by byte ranks: repeatedly merge the adjacent pair whose concatenation has
    the lowest rank (< ``limit``). Every single byte must be in ``ranks``.

    This is the BPE step only; tiktoken's "whole piece is a token" shortcut is the caller's.

    >>> merge_byte_ranks(b"abab", {b"a": 0, b"b": 1, b"ab": 2, b"abab": 3})
    [3]
    """
    if len(data) >= LONG_PIECE:
        return _byte_ranks_heap(data, ranks, limit)
    get = ranks.get
    parts = list(map(SINGLE_BYTES.__getitem__, data))
    pair_ranks = [get(a + b, NEVER) for a, b in zip(parts, parts[1:])]
    while pair_ranks:
        best = min(pair_ranks)
        if best >= limit:
            break
        i = pair_ranks.index(best)
        merged = parts[i] + parts[i + 1]
        parts[i] = merged
        del parts[i + 1]
        del pair_ranks[i]
        if i < len(pair_ranks):
            pair_ranks[i] = get(merged + parts[i + 1], NEVER)
        if i:
            pair_ranks[i - 1] = get(parts[i - 1] + merged, NEVER)
    return list(map(ranks.__getitem__, parts))


def _byte_ranks_heap(data: bytes, ranks: dict[bytes, int], limit: int) -> list[int]:
    """O(n log n) version of :func:`merge_byte_ranks` for long pieces.

    Heap entries are single ints ``rank * n + position`` (cheaper to compare than tuples).
    An entry is stale when its position was merged away or its pair changed; a pair only ever
    changes by growing, and ranks are unique per byte string, so "the pair at ``i`` still has
    rank ``r``" is an exact validity test.
    """
    get = ranks.get
    n = len(data)
    parts: list[bytes | None] = list(map(SINGLE_BYTES.__getitem__, data))
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    heap = []
    for i in range(n - 1):
        r = get(parts[i] + parts[i + 1])  # type: ignore[operator]
        if r is not None and r < limit:
            heap.append(r * n + i)
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        r, i = divmod(pop(heap), n)
        left = parts[i]
        j = nxt[i]
        if left is None or j >= n or get(left + parts[j]) != r:  # type: ignore[operator]
            continue
        merged = left + parts[j]  # type: ignore[operator]
        parts[i] = merged
        parts[j] = None
        k = nxt[j]
        nxt[i] = k
        if k < n:
            prv[k] = i
            r = get(merged + parts[k])  # type: ignore[operator]
            if r is not None and r < limit:
                push(heap, r * n + i)
        p = prv[i]
        if p >= 0:
            r = get(parts[p] + merged)  # type: ignore[operator]
            if r is not None and r < limit:
                push(heap, r * n + p)
    out = []
    i = 0
    while i < n:
        out.append(ranks[parts[i]])  # type: ignore[index]
        i = nxt[i]
    return out


# -- merge ranks (trained merge lists, HF semantics) ---------------------------------------------
def merge_pair_ranks(
    ids: list[int], pair_rank: dict[int, int], new_id: Sequence[int], stride: int, limit: int = NEVER
) -> list[int]:
    """Apply a merge list to the symbol ids of one piece (modifies and returns ``ids``).

    ``pair_rank[left * stride + right]`` is the rank of merge (left, right); ``new_id[rank]`` the
    id it produces. Only merges with rank < ``limit`` apply (``with_merge_prefix``).

    >>> # merges: (a, b) -> ab=3 at rank 0, (ab, c) -> abc=4 at rank 1; a=0 b=1 c=2
    >>> merge_pair_ranks([0, 1, 2, 0], {0 * 8 + 1: 0, 3 * 8 + 2: 1}, [3, 4], 8)
    [4, 0]
    """
    if len(ids) >= LONG_PIECE:
        return _pair_ranks_heap(ids, pair_rank, new_id, stride, limit)
    get = pair_rank.get
    pair_ranks = [get(a * stride + b, NEVER) for a, b in zip(ids, ids[1:])]
    while pair_ranks:
        best = min(pair_ranks)
        if best >= limit:
            break
        i = pair_ranks.index(best)
        merged = new_id[best]
        ids[i] = merged
        del ids[i + 1]
        del pair_ranks[i]
        if i < len(pair_ranks):
            pair_ranks[i] = get(merged * stride + ids[i + 1], NEVER)
        if i:
            pair_ranks[i - 1] = get(ids[i - 1] * stride + merged, NEVER)
    return ids


def _pair_ranks_heap(
    ids: list[int], pair_rank: dict[int, int], new_id: Sequence[int], stride: int, limit: int
) -> list[int]:
    """O(n log n) version of :func:`merge_pair_ranks` (same int-encoded heap and validity test:
    a merge rank names exactly one pair, and a changed pair never gets its old rank back)."""
    get = pair_rank.get
    n = len(ids)
    syms: list[int | None] = list(ids)
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    heap = []
    for i in range(n - 1):
        r = get(syms[i] * stride + syms[i + 1])  # type: ignore[operator]
        if r is not None and r < limit:
            heap.append(r * n + i)
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        r, i = divmod(pop(heap), n)
        left = syms[i]
        j = nxt[i]
        if left is None or j >= n or get(left * stride + syms[j]) != r:  # type: ignore[operator]
            continue
        merged = new_id[r]
        syms[i] = merged
        syms[j] = None
        k = nxt[j]
        nxt[i] = k
        if k < n:
            prv[k] = i
            r = get(merged * stride + syms[k])  # type: ignore[operator]
            if r is not None and r < limit:
                push(heap, r * n + i)
        p = prv[i]
        if p >= 0:
            r = get(syms[p] * stride + merged)  # type: ignore[operator]
            if r is not None and r < limit:
                push(heap, r * n + p)
    out = []
    i = 0
    while i < n:
        out.append(syms[i])
        i = nxt[i]
    return out  # type: ignore[return-value]


# -- per-piece cache -----------------------------------------------------------------------------
class PieceCache(dict[str, V], Generic[V]):
    """piece -> encoded ids, filled on a miss by ``compute``; cleared when it reaches ``maxsize``.

    Clearing (rather than LRU) keeps a hit at the cost of one C-level dict lookup, which is what
    makes ``reduce(iadd, map(cache.__getitem__, pieces), [])`` fast. Natural text
    re-fills the frequent pieces within a few kilobytes.
    """

    def __init__(self, compute: Callable[[str], V], maxsize: int = 1 << 17) -> None:
        super().__init__()
        self.compute = compute
        self.maxsize = maxsize

    def __missing__(self, piece: str) -> V:
        value = self.compute(piece)
        if len(self) >= self.maxsize:
            self.clear()
        self[piece] = value
        return value


# -- tables: everything a tokenizer shares with its merge prefixes -------------------------------
PieceEncoder = Callable[[str], tuple[int, ...]]


class RankTable:
    """A tiktoken rank table (``bytes -> rank``; the rank is also the token id).

    Shared, never mutated, by every prefix/backend view of one tokenizer. The merge list is not
    stored in ``.tiktoken`` files; :meth:`merges` recovers it the way minbpe/tiktoken do (BPE the
    token's bytes with only lower ranks allowed: the last two parts are its merge), on first use.
    """

    byte_level = True

    def __init__(self, ranks: dict[bytes, int]) -> None:
        missing = [b for b in range(256) if SINGLE_BYTES[b] not in ranks]
        if missing:
            raise ConfigError(
                f"rank table lacks {len(missing)} single bytes (first 0x{missing[0]:02x}); "
                "a byte-level table must hold all 256 so that every text can be encoded"
            )
        self.ranks = ranks
        for token, rank in ranks.items():  # before sizing a table by the largest rank
            problem = id_problem(rank)
            if problem is not None:
                raise ConfigError(f"token {token!r} has rank {rank!r}, which {problem}")
        id_bytes: list[bytes | None] = [None] * (max(ranks.values()) + 1)
        for token, rank in ranks.items():
            if rank < 0 or id_bytes[rank] is not None:
                raise ConfigError(f"rank {rank} is used twice (or is negative); every rank must be unique")
            id_bytes[rank] = token
        self.id_bytes = id_bytes
        self.n_merges = len(ranks) - 256
        self._merge_ranks: list[int] | None = None
        self._merges: list[tuple[str, str]] | None = None
        self._strs: dict[int, str] = {}  # id -> GPT-2 byte string, filled as tokens are shown

    def limit_for(self, k: int) -> int:
        """The rank bound that admits exactly the first ``k`` merges (multi-byte tokens)."""
        return NEVER if k >= self.n_merges else self._sorted_merge_ranks()[k]

    def piece_encoder(self, limit: int) -> PieceEncoder:
        ranks = self.ranks
        get = ranks.get

        def encode_piece(piece: str) -> tuple[int, ...]:
            data = piece.encode("utf-8")
            rank = get(data)
            if rank is not None and rank < limit:  # tiktoken's shortcut: a whole-piece token wins
                return (rank,)
            return tuple(merge_byte_ranks(data, ranks, limit))

        return encode_piece

    def token_str(self, token_id: int) -> str | None:
        token = self._strs.get(token_id)
        if token is None:
            data = self.id_bytes[token_id] if 0 <= token_id < len(self.id_bytes) else None
            if data is None:
                return None
            token = self._strs[token_id] = bytes_to_token_str(data)
        return token

    def id_of(self, token: str) -> int | None:
        try:
            return self.ranks.get(token_str_to_bytes(token))
        except KeyError:
            return None

    def vocab(self, limit: int) -> dict[str, int]:
        return {bytes_to_token_str(t): r for t, r in self.ranks.items() if r < limit or len(t) == 1}

    def merges(self, k: int) -> list[tuple[str, str]]:
        if self._merges is None:
            id_bytes = self.id_bytes
            merges = []
            for rank in self._sorted_merge_ranks():
                token = id_bytes[rank]
                assert token is not None
                parts = merge_byte_ranks(token, self.ranks, rank)
                if len(parts) != 2:  # never happens in the OpenAI tables; kept honest for user files
                    raise ConfigError(f"token {token!r} (rank {rank}) cannot be built from two lower-ranked tokens")
                merges.append((self.token_str(parts[0]) or "", self.token_str(parts[1]) or ""))
            self._merges = merges
        return self._merges[:k]

    def _sorted_merge_ranks(self) -> list[int]:
        """Ranks of the multi-byte tokens in order: rank of the k-th merge is element k."""
        if self._merge_ranks is None:
            self._merge_ranks = sorted(r for t, r in self.ranks.items() if len(t) > 1)
        return self._merge_ranks


class MergeTable:
    """A trained merge list over a vocabulary (Hugging Face semantics), as integer tables.

    ``pair_rank[left_id * stride + right_id]`` is the merge's rank and ``new_id[rank]`` its result;
    an int key hashes faster than a tuple. When two merges spell the same string they share its
    vocab id, as HF's trainer does; a pair listed twice keeps its last rank (HF).
    """

    def __init__(
        self,
        *,
        name: str,
        vocab: dict[str, int],
        merges: list[tuple[str, str]],
        byte_level: bool,
        end_of_word_suffix: str | None,
        unk_token: str | None,
        end_of_word_separate: bool = False,
    ) -> None:
        self.name = name
        self.vocab_map = vocab
        self.merge_list = list(merges)
        self.byte_level = byte_level
        self.suffix = end_of_word_suffix
        self.separate = end_of_word_separate  # </w> a symbol of its own (l o w </w>), not glued to w
        self.n_merges = len(self.merge_list)
        for token, token_id in vocab.items():  # before sizing a table by the largest id
            problem = id_problem(token_id)
            if problem is not None:
                raise ConfigError(f"vocabulary token {token!r} has id {token_id!r}, which {problem}")
        size = max(vocab.values(), default=-1) + 1
        self.stride = max(size, 1)
        id_str: list[str | None] = [None] * size
        for token, token_id in vocab.items():
            if token_id < 0 or id_str[token_id] is not None:
                raise ConfigError(f"vocabulary id {token_id} is given to {token!r} and another token; ids must be unique")
            id_str[token_id] = token
        self.id_str = id_str
        self.pair_rank: dict[int, int] = {}
        self.new_id: list[int] = []
        for rank, (left, right) in enumerate(self.merge_list):
            ids = (vocab.get(left), vocab.get(right), vocab.get(left + right))
            if None in ids:
                missing = next(t for t, i in zip((left, right, left + right), ids) if i is None)
                raise ConfigError(
                    f"merge {rank} ({left!r}, {right!r}): {missing!r} is not in the vocabulary; "
                    "vocab and merges must come from the same tokenizer"
                )
            # A pair listed twice (HF's trainer can merge a pair again after an id reuse) keeps its
            # last rank, as HF's model does; a merge prefix then sees the pair only from that rank.
            self.pair_rank[ids[0] * self.stride + ids[1]] = rank  # type: ignore[operator]
            self.new_id.append(ids[2])  # type: ignore[arg-type]
        self.unk_id: int | None = None
        if unk_token is not None:
            if unk_token not in vocab:
                raise ConfigError(f"unk_token {unk_token!r} is not in the vocabulary; add it or pass unk_token=None")
            self.unk_id = vocab[unk_token]
        self.byte_id: list[int | None] = [vocab.get(BYTE_CHARS[b]) for b in range(256)]
        self.id_bytes: list[bytes | None] = [None if t is None else _token_bytes(t, byte_level) for t in id_str]
        self._first_rank_of: dict[int, int] | None = None

    def limit_for(self, k: int) -> int:
        return NEVER if k >= self.n_merges else k

    def piece_encoder(self, limit: int, *, lenient: bool = False) -> PieceEncoder:
        """piece -> ids. An unknown symbol becomes ``unk_id`` (merged like any symbol, as in HF);
        without an unk token it raises :class:`UnknownSymbolError` -- or, ``lenient``, becomes
        :data:`~bpe_engine.types.UNKNOWN_ID` with the known runs around it merged on their own
        (what ``encode_detailed`` shows as an unknown piece)."""
        pair_rank, new_id, stride = self.pair_rank, self.new_id, self.stride
        if self.byte_level:
            byte_id = self.byte_id.__getitem__

            def initial(piece: str) -> list[int | None]:
                return list(map(byte_id, piece.encode("utf-8")))

        else:
            get, suffix, separate = self.vocab_map.get, self.suffix, self.separate

            def initial(piece: str) -> list[int | None]:
                symbols = list(piece)
                if suffix and symbols:
                    if separate:
                        symbols.append(suffix)
                    else:
                        symbols[-1] += suffix
                return list(map(get, symbols))

        def merge(ids: list[int]) -> list[int]:
            return ids if len(ids) < 2 else merge_pair_ranks(ids, pair_rank, new_id, stride, limit)

        def encode_piece(piece: str) -> tuple[int, ...]:
            ids = initial(piece)
            if None not in ids:
                return tuple(merge(ids))  # type: ignore[arg-type]
            if self.unk_id is not None:
                return tuple(merge([self.unk_id if i is None else i for i in ids]))
            if not lenient:
                raise self.unknown_symbol(piece, ids.index(None))
            out: list[int] = []
            run: list[int] = []
            for i in ids:
                if i is None:
                    out += merge(run)
                    out.append(UNKNOWN_ID)
                    run = []
                else:
                    run.append(i)
            return tuple(out + merge(run))

        return encode_piece

    def symbol_at(self, piece: str, at: int) -> str:
        """The model-alphabet symbol ``at`` of ``piece`` (a GPT-2 byte character, or a character
        with ``</w>`` glued on when it ends the piece)."""
        if self.byte_level:
            return BYTE_CHARS[piece.encode("utf-8", "surrogatepass")[at]]
        if self.separate:  # l o w </w>: the marker is the symbol after the last character
            return piece[at] if at < len(piece) else self.suffix or ""
        return piece[at] + (self.suffix or "" if at == len(piece) - 1 else "")

    def why_unknown(self, symbol: str) -> str:
        """Exactly why ``symbol`` has no id: which byte or character, and what the vocabulary has instead."""
        if self.byte_level:
            byte = token_str_to_bytes(symbol)[0]
            return f"byte 0x{byte:02X} is not in the vocabulary of {self.name!r} (it was trained on the bytes it saw only)"
        suffix = self.suffix or ""
        char = symbol[: -len(suffix)] if suffix and symbol.endswith(suffix) else symbol
        what = f"character {char!r} (U+{ord(char):04X})" if len(char) == 1 else repr(char)
        if suffix and symbol.endswith(suffix) and char in self.vocab_map:
            return f"the word-final {symbol!r} is not in the vocabulary of {self.name!r} ({what} is, but only inside words)"
        if suffix and not symbol.endswith(suffix) and char + suffix in self.vocab_map:
            return f"{what} is in the vocabulary of {self.name!r} only at the end of a word ({char + suffix!r})"
        return f"{what} is not in the alphabet of {self.name!r}"

    def unknown_symbol(self, piece: str, at: int) -> UnknownSymbolError:
        symbol = self.symbol_at(piece, at)
        fix = "retrain with the full 256-byte alphabet" if self.byte_level else "retrain on text that contains it, use a byte-level tokenizer"
        return UnknownSymbolError(
            f"{self.why_unknown(symbol)}, so {visible_text(piece)!r} cannot be encoded; "
            f"inspect and compare show it as an unknown piece; {fix}, or train with an unknown token",
            symbol=symbol,
        )

    def token_str(self, token_id: int) -> str | None:
        return self.id_str[token_id] if 0 <= token_id < len(self.id_str) else None

    def id_of(self, token: str) -> int | None:
        return self.vocab_map.get(token)

    def vocab(self, limit: int) -> dict[str, int]:
        if limit >= self.n_merges:
            return self.vocab_map
        if self._first_rank_of is None:
            first: dict[int, int] = {}
            for rank, token_id in enumerate(self.new_id):
                first.setdefault(token_id, rank)
            self._first_rank_of = first
        first = self._first_rank_of
        return {t: i for t, i in self.vocab_map.items() if first.get(i, -1) < limit}

    def merges(self, k: int) -> list[tuple[str, str]]:
        return self.merge_list[:k]


def _token_bytes(token: str, byte_level: bool) -> bytes:
    """The bytes a vocab string stands for: GPT-2 byte characters decoded for byte-level models
    (a special such as ``<|endoftext|>`` outside the byte table falls back to its UTF-8)."""
    if byte_level:
        try:
            return token_str_to_bytes(token)
        except KeyError:
            pass
    return token.encode("utf-8")
