"""The merge loops: turn one pre-tokenized piece into token ids, fast, in pure Python.

Two rules decide which adjacent pair merges next:

- **byte ranks** (tiktoken ``.tiktoken`` tables): the pair whose *concatenated bytes* has the
  lowest rank; the merged token's id is that rank. :func:`merge_byte_ranks`.
- **merge ranks** (trained merge lists, Hugging Face semantics): the pair that is itself the
  lowest-ranked *merge*; the merged id comes from the merge table (two merges may share one
  id when they spell the same string). :func:`merge_pair_ranks`.

Ties go to the leftmost pair in both rules, as in tiktoken and HF ``Word::merge_all``.

Each rule has a short-piece loop of its own: a list of pair ranks where only the two neighbours
of each merge are updated; ``min`` and ``list.index`` run in C, so this beats anything cleverer
below ~32 symbols. Long pieces (``"x" * 1_000_000``) share one :func:`heap_merge`: a heap of
``rank * n + position`` over a doubly linked list, O(n log n), so doubling the length costs ~2.1x
where the list loop is quadratic. Both rules look a pair up by the key ``left * stride + right``
-- the merge table's int key, or with ``stride`` 1 the concatenated bytes -- so the heap is
written once and proven equal to the naive encoder (``tests/engine/test_heap_merge_property.py``).

Pieces repeat a lot in natural text, so :class:`PieceCache` memoises piece -> ids (as tuples:
cheaper to flatten and invisible to the cyclic GC); a cache hit is one dict lookup done in C via
``map(cache.__getitem__, pieces)``. The tables the loops run on are
:class:`~bpe_engine.bpe.rank_table.RankTable` and :class:`~bpe_engine.bpe.merge_table.MergeTable`.

>>> ranks = {b"a": 0, b"b": 1, b"ab": 2, b"ba": 3}
>>> merge_byte_ranks(b"aba", ranks)  # "ab" (rank 2) beats "ba" (rank 3); "aba" is no token
[2, 0]
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

NEVER = 1 << 62
"""Sentinel rank: larger than any real rank, so ``min`` never picks it before a real merge."""

LONG_PIECE = 32
"""Symbols from which the heap algorithm is used. Measured on cl100k pieces of en_10mb/ko_all:
the list loop wins by ~10% below 14 bytes, the two tie at 14-32, the heap wins from ~32 up
(2x at 128, 5x at 512)."""

SINGLE_BYTES: tuple[bytes, ...] = tuple(bytes([b]) for b in range(256))

PieceEncoder = Callable[[str], tuple[int, ...]]
"""piece -> its token ids: what a table's ``piece_encoder`` returns and :class:`PieceCache` memoises."""

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
    """:func:`merge_byte_ranks` for long pieces: :func:`heap_merge` over single bytes, the key of
    a pair being its concatenation (stride 1), which is also the merged symbol."""
    parts = heap_merge(list(map(SINGLE_BYTES.__getitem__, data)), ranks.get, 1, None, limit)
    return list(map(ranks.__getitem__, parts))


# -- merge ranks (trained merge lists, HF semantics) ---------------------------------------------
def merge_pair_ranks(
    ids: list[int], pair_rank: dict[int, int], new_id: Sequence[int], stride: int, limit: int = NEVER
) -> list[int]:
    """Apply a merge list to the symbol ids of one piece (``ids`` is used up: pass a fresh list).

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
    """:func:`merge_pair_ranks` for long pieces: :func:`heap_merge` over the ids, the merged id
    of rank ``r`` being ``new_id[r]``."""
    return heap_merge(ids, pair_rank.get, stride, new_id, limit)


# -- the heap merge, for long pieces of either rule ----------------------------------------------
def heap_merge(
    symbols: list[Any],
    rank_of: Callable[[Any], int | None],
    stride: int,
    produces: Sequence[Any] | None,
    limit: int,
) -> list[Any]:
    """Merge ``symbols`` lowest rank first, leftmost on ties, in O(n log n); ``symbols`` is the
    working list (used up), the merged symbols are returned.

    A pair's rank is ``rank_of(left * stride + right)`` (None: no merge); only ranks < ``limit``
    apply. The merge of rank ``r`` gives ``produces[r]``, or, when ``produces`` is None, the key
    itself (byte ranks: with stride 1 the key is the concatenated bytes, ``b * 1 == b``).

    Heap entries are single ints ``rank * n + position`` (cheaper to compare than tuples) over a
    doubly linked list of positions. An entry is stale when its position was merged away or its
    pair changed. A pair only ever changes by growing (a merge makes a longer string), so its key
    changes, and no two keys share a rank (ranks are unique per byte string, and a merge rank
    names one pair): "the pair at ``i`` still has rank ``r``" is an exact validity test.

    >>> heap_merge([0, 1, 2, 0], {0 * 8 + 1: 0, 3 * 8 + 2: 1}.get, 8, [3, 4], NEVER)
    [4, 0]
    >>> heap_merge([b"a", b"b", b"a"], {b"ab": 2, b"ba": 3}.get, 1, None, NEVER)
    [b'ab', b'a']
    """
    syms = symbols
    get = rank_of
    n = len(syms)
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    heap = []
    for i in range(n - 1):
        r = get(syms[i] * stride + syms[i + 1])
        if r is not None and r < limit:
            heap.append(r * n + i)
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        r, i = divmod(pop(heap), n)
        left = syms[i]
        j = nxt[i]
        if left is None or j >= n:
            continue
        key = left * stride + syms[j]
        if get(key) != r:
            continue
        merged = key if produces is None else produces[r]
        syms[i] = merged
        syms[j] = None
        k = nxt[j]
        nxt[i] = k
        if k < n:
            prv[k] = i
            r = get(merged * stride + syms[k])
            if r is not None and r < limit:
                push(heap, r * n + i)
        p = prv[i]
        if p >= 0:
            r = get(syms[p] * stride + merged)
            if r is not None and r < limit:
                push(heap, r * n + p)
    out = []
    i = 0
    while i < n:
        out.append(syms[i])
        i = nxt[i]
    return out


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
