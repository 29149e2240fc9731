"""The one heap merge of bpe_encode equals the naive encoder for random tables, both rules.

``heap_merge`` serves byte ranks (tiktoken) and merge ranks (trained merge lists); these draw the
tables too -- not only the text -- so ties, shared results, repeated pairs, ranks out of merge
order and merge prefixes (``limit``) all come up.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.bpe import encode as bpe_encode
from bpe_engine.bpe.encode import merge_byte_ranks, merge_pair_ranks
from bpe_engine.bpe.merge_table import MergeTable
from bpe_engine.bpe.naive_encode import bpe_by_merges, bpe_by_ranks

# Few letters and many merges: long tokens overlap, so a stale heap entry or a wrong tie shows
# (a heap that skips the stale-entry test fails ~5% of such cases, ~0.3% with 4 letters and 24
# merges). Texts are glued from the table's own tokens, up to MAX_TEXT long: hypothesis alone
# draws mostly short texts, which the heap never gets wrong.
LETTERS = st.sampled_from(["ab", "abc"])
MAX_MERGES = 48
MAX_TEXT = 200


@st.composite
def texts(draw: st.DrawFn, tokens: list[str]) -> str:
    """Up to :data:`MAX_TEXT` characters glued from ``tokens`` (letters among them)."""
    n = draw(st.integers(0, 60))
    return "".join(draw(st.lists(st.sampled_from(tokens), min_size=n, max_size=n)))[:MAX_TEXT]


@st.composite
def rank_tables(draw: st.DrawFn, letters: str) -> dict[bytes, int]:
    """Single bytes plus tokens glued from two earlier ones, ranked in the order they were made
    (as trained) or in any order (unique ranks are all the rule needs)."""
    tokens = [c.encode() for c in letters]
    for _ in range(draw(st.integers(0, MAX_MERGES))):
        left, right = draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens))
        if left + right not in tokens:
            tokens.append(left + right)
    order = range(len(tokens))
    ranks = draw(st.sampled_from([list(order)]) | st.permutations(order))
    return dict(zip(tokens, ranks))


@st.composite
def byte_cases(draw: st.DrawFn) -> tuple[dict[bytes, int], bytes]:
    ranks = draw(rank_tables(draw(LETTERS)))
    return ranks, draw(texts([t.decode() for t in ranks])).encode()


@settings(max_examples=200, deadline=None)
@given(case=byte_cases(), cut=st.integers(0, MAX_MERGES + 8))
def test_byte_ranks_heap_equals_naive_encoder(case: tuple[dict[bytes, int], bytes], cut: int) -> None:
    ranks, data = case
    limit = cut if cut <= MAX_MERGES else bpe_encode.NEVER  # a rank prefix, or every rank
    kept = {t: r for t, r in ranks.items() if r < limit or len(t) == 1}
    oracle = [ranks[p] for p in bpe_by_ranks(kept, data)]
    assert bpe_encode._byte_ranks_heap(data, ranks, limit) == oracle
    assert merge_byte_ranks(data, ranks, limit) == oracle  # list loop below LONG_PIECE, heap above


@st.composite
def merge_cases(draw: st.DrawFn) -> tuple[dict[str, int], list[tuple[str, str]], str]:
    """A vocabulary, a merge list over it (pairs may repeat, two pairs may spell one token) and a text."""
    letters = draw(LETTERS)
    vocab = {c: i for i, c in enumerate(letters)}
    merges: list[tuple[str, str]] = []
    for _ in range(draw(st.integers(0, MAX_MERGES))):
        left, right = draw(st.sampled_from(sorted(vocab))), draw(st.sampled_from(sorted(vocab)))
        merges.append((left, right))
        vocab.setdefault(left + right, len(vocab))
    return vocab, merges, draw(texts(list(vocab)))


@settings(max_examples=200, deadline=None)
@given(case=merge_cases(), cut=st.integers(0, MAX_MERGES + 8))
def test_merge_ranks_heap_equals_naive_encoder(case: tuple[dict[str, int], list[tuple[str, str]], str], cut: int) -> None:
    vocab, merges, text = case
    table = MergeTable(name="drawn", vocab=vocab, merges=merges, byte_level=False, end_of_word_suffix=None, unk_token=None)
    limit = table.limit_for(cut)
    # A pair listed twice counts from its last rank (HF), so a merge prefix holds it only when that
    # rank is inside; the naive encoder sees the prefix as the list with the others blanked out.
    last = {pair: rank for rank, pair in enumerate(merges)}
    prefix = [pair if last[pair] < limit else ("", "") for pair in merges]
    oracle = [vocab[t] for t in bpe_by_merges(prefix, list(text))]
    ids = [vocab[c] for c in text]
    assert bpe_encode._pair_ranks_heap(list(ids), table.pair_rank, table.new_id, table.stride, limit) == oracle
    assert merge_pair_ranks(list(ids), table.pair_rank, table.new_id, table.stride, limit) == oracle
