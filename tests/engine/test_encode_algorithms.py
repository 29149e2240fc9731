"""The merge loops of bpe_encode: list and heap algorithms agree with each other and the oracle."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.bpe import encode as bpe_encode
from bpe_engine.bpe.encode import PieceCache, merge_byte_ranks, merge_pair_ranks
from bpe_engine.bpe.naive_encode import bpe_by_merges, bpe_by_ranks
from bpe_engine.catalog.openai import reference_ranks

SMALL_RANKS = {b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"bc": 4, b"abc": 5, b"aa": 6, b"aaaa": 7, b"ca": 8}


def _heap(data: bytes, ranks: dict[bytes, int], limit: int = bpe_encode.NEVER) -> list[int]:
    return bpe_encode._byte_ranks_heap(data, ranks, limit)


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=200).map(lambda b: bytes(x % 3 + 97 for x in b)))
def test_byte_rank_list_heap_and_oracle_agree(data: bytes) -> None:
    oracle = [SMALL_RANKS[p] for p in bpe_by_ranks(SMALL_RANKS, data)]
    assert merge_byte_ranks(data, SMALL_RANKS) == oracle
    assert _heap(data, SMALL_RANKS) == oracle


@pytest.mark.parametrize("seed", range(5))
def test_heap_equals_oracle_on_real_ranks(seed: int) -> None:
    """Long random pieces (heap path) over cl100k ranks, including multi-byte characters."""
    rng = random.Random(seed)
    ranks = reference_ranks("cl100k_base")
    alphabet = list("aeinrst ") + ["한", "국", "é", "🙂"]
    data = "".join(rng.choice(alphabet) for _ in range(150)).encode()
    assert len(data) >= bpe_encode.LONG_PIECE
    assert merge_byte_ranks(data, ranks) == [ranks[p] for p in bpe_by_ranks(ranks, data)]


def test_rank_limit_restricts_merges() -> None:
    assert merge_byte_ranks(b"abc", SMALL_RANKS, limit=4) == [3, 2]  # bc (4) and abc (5) excluded
    kept = {t: r for t, r in SMALL_RANKS.items() if r < 4 or len(t) == 1}
    data = b"abcaab" * 40
    assert _heap(data, SMALL_RANKS, 4) == [SMALL_RANKS[p] for p in bpe_by_ranks(kept, data)]


MERGES = [("b", "c"), ("a", "b"), ("a", "bc"), ("ab", "c"), ("c", "c"), ("a", "a"), ("aa", "aa")]


def _merge_tables() -> tuple[dict[str, int], dict[int, int], list[int], int]:
    vocab = {"a": 0, "b": 1, "c": 2}
    for left, right in MERGES:
        vocab.setdefault(left + right, len(vocab))
    stride = len(vocab)
    pair_rank = {vocab[a] * stride + vocab[b]: r for r, (a, b) in enumerate(MERGES)}
    new_id = [vocab[a + b] for a, b in MERGES]
    return vocab, pair_rank, new_id, stride


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="abc", max_size=250))
def test_merge_rank_list_heap_and_oracle_agree(text: str) -> None:
    vocab, pair_rank, new_id, stride = _merge_tables()
    oracle = [vocab[t] for t in bpe_by_merges(MERGES, list(text))]
    ids = [vocab[c] for c in text]
    assert merge_pair_ranks(list(ids), pair_rank, new_id, stride) == oracle
    assert bpe_encode._pair_ranks_heap(list(ids), pair_rank, new_id, stride, bpe_encode.NEVER) == oracle


def test_merge_rank_limit() -> None:
    vocab, pair_rank, new_id, stride = _merge_tables()
    ids = [vocab[c] for c in "abc"]
    assert merge_pair_ranks(list(ids), pair_rank, new_id, stride, limit=1) == [vocab["a"], vocab["bc"]]
    assert merge_pair_ranks(list(ids), pair_rank, new_id, stride, limit=3) == [vocab["abc"]]


def test_piece_cache_computes_once_and_stays_bounded() -> None:
    calls: list[str] = []

    def compute(piece: str) -> list[int]:
        calls.append(piece)
        return [len(piece)]

    cache: PieceCache[list[int]] = PieceCache(compute, maxsize=3)
    assert [cache[p] for p in ["aa", "b", "aa", "ccc"]] == [[2], [1], [2], [3]]
    assert calls == ["aa", "b", "ccc"]
    cache["dddd"]
    assert len(cache) <= 3 and cache["dddd"] == [4]


def test_repetitive_piece_work_grows_near_linearly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a timing test: counts heap pops, which must grow like n (log n), not n^2."""
    ranks = reference_ranks("gpt2")
    real_pop = bpe_encode.heapq.heappop
    pops = [0]

    def counting_pop(heap: list[int]) -> int:
        pops[0] += 1
        return real_pop(heap)

    monkeypatch.setattr(bpe_encode.heapq, "heappop", counting_pop)
    counts = []
    for n in (2000, 4000):
        pops[0] = 0
        merge_byte_ranks(b"^" * n, ranks)
        counts.append(pops[0])
    assert 0 < counts[1] <= 2.3 * counts[0]
