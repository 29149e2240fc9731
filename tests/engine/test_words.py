"""The words core: one words table and one merge(pair) -> pair-count changes (HF's Word::merge)."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bpe_engine.training.naive_bpe import fuse
from bpe_engine.training.word_table import Words


def test_merging_l_l_in_hello() -> None:
    # HF's example: h=0 e=1 l=2 o=3, ll=4 -> (e,l) -1, (e,ll) +1, (l,o) -1, (ll,o) +1
    table = Words.from_ids([[0, 1, 2, 2, 3]], [1])
    merge = table.merge_ids(2, 2, 4)
    assert merge.deltas() == {(1, 2): -1, (1, 4): 1, (2, 3): -1, (4, 3): 1}
    assert table.ids(0) == [0, 1, 4, 3]
    assert (merge.changed, merge.occurrences, merge.pair_count) == ([0], 1, 1)


def test_max_length_leaves_long_new_pairs_uncounted() -> None:
    table = Words.from_ids([[0, 1, 2, 2, 3]], [1])
    merge = table.merge(chr(2) * 2, chr(4), [0], lengths=[1, 1, 1, 1, 2], max_length=3)
    assert merge.deltas() == {(1, 2): -1, (2, 3): -1}  # (e,ll) and (ll,o) would be 3 long
    assert merge.gained == {} and merge.formed_in == {}


def test_runs_fuse_left_to_right_and_the_left_neighbour_is_the_new_symbol() -> None:
    # a a a a -> aa aa: (a,a) x3 before; the middle one is lost, (aa,aa) is formed.
    table = Words.from_ids([[0, 0, 0, 0], [0, 0, 0], [5, 6]], [1, 10, 7])
    merge = table.merge_ids(0, 0, 1)
    assert table.ids(0) == [1, 1] and table.ids(1) == [1, 0] and table.ids(2) == [5, 6]
    assert merge.deltas() == {(0, 0): -11, (1, 0): 10, (1, 1): 1}
    assert merge.occurrences == 2 + 10 and merge.pair_count == 3 + 20
    assert merge.changed == [0, 1]  # the word without the pair is skipped


def test_counts_weight_the_changes_and_formed_in_lists_the_words() -> None:
    table = Words.from_ids([[7, 0, 1], [0, 1, 8], [7, 0, 1, 8]], [2, 3, 5])
    merge = table.merge_ids(0, 1, 9, where=[0, 1, 2, 2])  # a stale duplicate index entry is harmless
    assert merge.lost == {"\x07\x00": 7, "\x01\x08": 8}
    assert merge.gained == {"\x07\t": 7, "\t\x08": 8}
    assert merge.formed_in == {"\x07\t": (0, 2), "\t\x08": (1, 2)}
    assert merge.changed == [0, 1, 2]


def naive_merge(word: list[int], left: int, right: int, new: int) -> tuple[list[int], dict[tuple[int, int], int]]:
    """Recount before and after: the net pair changes a merge must report."""
    def pairs(w: list[int]) -> dict[tuple[int, int], int]:
        out: dict[tuple[int, int], int] = {}
        for p in zip(w, w[1:]):
            out[p] = out.get(p, 0) + 1
        return out

    out = fuse(word, left, right, new)[0]
    before, after = pairs(word), pairs(out)
    delta = {p: after.get(p, 0) - before.get(p, 0) for p in {*before, *after}}
    delta.pop((left, right), None)
    return out, {p: d for p, d in delta.items() if d}


@settings(max_examples=300, deadline=None)
@given(
    word_list=st.lists(st.lists(st.integers(0, 3), max_size=9), min_size=1, max_size=4),
    counts=st.lists(st.integers(1, 5), min_size=4, max_size=4),
    left=st.integers(0, 3),
    right=st.integers(0, 3),
    new=st.sampled_from([2, 4]),  # 2: an id already in the words, as after an id reuse
)
def test_reported_changes_equal_recounting(word_list, counts, left, right, new) -> None:
    assume(new not in (left, right))  # a merged token is longer than either part
    table = Words.from_ids(word_list, counts[: len(word_list)])
    merge = table.merge_ids(left, right, new)
    expected: dict[tuple[int, int], int] = {}
    for k, w in enumerate(word_list):
        out, delta = naive_merge(w, left, right, new)
        assert table.ids(k) == out
        for p, d in delta.items():
            expected[p] = expected.get(p, 0) + d * counts[k]
    got = merge.deltas()
    got.pop((left, right), None)  # the merged pair itself: the caller resets or keeps it
    assert got == {p: d for p, d in sorted(expected.items()) if d}
