"""The stepper's incremental segmentation must equal re-segmenting from scratch at every step."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.explore.stepper import Stepper, initial_symbols
from bpe_engine.pretokenizers import END_OF_WORD, END_OF_WORD_SEPARATE, GPT2, NONE, WHITESPACE
from bpe_engine.training.naive_bpe import fuse


def _merge_word(symbols: tuple[str, ...], left: str, right: str, new: str) -> tuple[tuple[str, ...], int]:
    """From scratch, with the naive trainer's fuse: the oracle for the stepper."""
    out, fused = fuse(symbols, left, right, new)
    return tuple(out), fused


def naive_merges(words: list[tuple[str, ...]], counts: list[int], n: int) -> list[tuple[str, str, str]]:
    """A deliberately slow trainer (recount everything each merge; ties -> first seen) for merges."""
    words = list(words)
    merges: list[tuple[str, str, str]] = []
    for _ in range(n):
        pairs: Counter[tuple[str, str]] = Counter()
        for w, c in zip(words, counts):
            for p in zip(w, w[1:]):
                pairs[p] += c
        if not pairs:
            break
        (left, right), _ = max(pairs.items(), key=lambda kv: kv[1])
        merges.append((left, right, left + right))
        words = [_merge_word(w, left, right, left + right)[0] for w in words]
    return merges


def from_scratch(stepper: Stepper, initial: list[tuple[str, ...]], k: int) -> list[tuple[str, ...]]:
    out = []
    for w in initial:
        for rank in range(k):
            w = _merge_word(w, *stepper.merge_at(rank))[0]
        out.append(w)
    return out


@pytest.mark.parametrize(
    ("pre", "byte_level"),
    [(GPT2, True), (WHITESPACE, False), (END_OF_WORD, False), (END_OF_WORD_SEPARATE, False), (GPT2, False)],
)
def test_forward_backward_match_from_scratch(alice_text: str, pre, byte_level: bool) -> None:
    text = alice_text[:1500] + " 한국어 헌법 aaa aaaa"
    merges: list[tuple[str, str, str]] = []
    stepper = Stepper.from_text(text, pre, byte_level=byte_level, merges=merges)
    initial = [stepper.word_symbols(i) for i in range(stepper.word_count)]
    merges.extend(naive_merges(initial, stepper.counts, 40))  # live list: stepper sees the appends
    assert stepper.available == 40
    total0 = stepper.token_count
    for k in range(1, 41):
        change = stepper.forward()
        assert change.rank == k - 1
        if k % 4 == 0 or k < 4:
            expected = from_scratch(stepper, initial, k)
            assert [stepper.word_symbols(i) for i in range(stepper.word_count)] == expected
            assert stepper.token_count == sum(len(w) * c for w, c in zip(expected, stepper.counts))
    for k in range(39, 30, -1):
        stepper.backward()
        assert [stepper.word_symbols(i) for i in range(stepper.word_count)] == from_scratch(stepper, initial, k)
    assert stepper.token_count < total0
    stepper.seek(17)
    assert [stepper.word_symbols(i) for i in range(stepper.word_count)] == from_scratch(stepper, initial, 17)
    stepper.seek(0)
    assert [stepper.word_symbols(i) for i in range(stepper.word_count)] == initial
    assert stepper.token_count == total0


def test_change_reports_words_and_occurrences() -> None:
    stepper = Stepper.from_text("aaa aa ab", NONE, byte_level=False, merges=[("a", "a", "aa")])
    # one word "aaa aa ab": pairs a-a at 0,1 and 4; fused left to right -> 2 fused
    change = stepper.forward()
    assert (change.words_changed, change.occurrences, change.pair_count) == (1, 2, 3)
    assert change.changes[0].before[:3] == ("a", "a", "a")
    assert change.changes[0].after[:3] == ("aa", "a", " ")
    assert stepper.token_count == 9 - 2
    assert stepper.tokens_per_char == pytest.approx(7 / 9)


def test_derivation_tree_uses_only_earlier_merges() -> None:
    merges = [("t", "h", "th"), ("th", "e", "the"), ("Ġ", "the", "Ġthe")]
    stepper = Stepper.from_text(" the the", GPT2, byte_level=True, merges=merges)
    tree = stepper.derivation("Ġthe")
    left, right = tree.children
    assert tree.rank == 2 and left.token == "Ġ" and left.kind == "base" and right.rank == 1
    assert tree.data == b" the" and right.children[0].data == b"th"
    assert stepper.derivation("the", before=1).rank is None  # merge 2 comes later than the limit


def test_initial_symbols_forms() -> None:
    assert initial_symbols(" hi", byte_level=True) == ("Ġ", "h", "i")
    assert initial_symbols("hug", byte_level=False, continuing_prefix="##") == ("h", "##u", "##g")
    assert initial_symbols("a", byte_level=False, end_of_word_suffix="</w>") == ("a</w>",)
    assert initial_symbols("a", byte_level=False, end_of_word_suffix="</w>", end_of_word="separate") == ("a", "</w>")


def test_pieces_between_and_first_piece() -> None:
    stepper = Stepper.from_text("ab cd ab", GPT2, byte_level=True, merges=[])
    assert list(stepper.pieces_between(3, 5)) == [(1, 2, 5)]
    assert stepper.first_piece_of([1, 0]) == 0
    with pytest.raises(IndexError):
        stepper.forward()
    with pytest.raises(IndexError):
        stepper.backward()


def test_undo_restores_words_that_already_held_the_new_token() -> None:
    # Two merges yield the same token (HF reuses an id when a + bc == ab + c); here made explicit.
    stepper = Stepper.from_text("abcd", NONE, byte_level=False, merges=[("a", "b", "X"), ("c", "d", "X")])
    stepper.seek(2)
    assert stepper.word_symbols(0) == ("X", "X")
    last = stepper.last_change()
    assert last is not None and last.changes[0].before == ("X", "c", "d")
    stepper.backward()
    assert stepper.word_symbols(0) == ("X", "c", "d")
    stepper.backward()
    assert stepper.word_symbols(0) == ("a", "b", "c", "d")
    assert stepper.last_change() is None
    stepper.forward()
    assert stepper.last_change().changes[0].after == ("X", "c", "d")  # type: ignore[union-attr]


@settings(max_examples=60, deadline=None)
@given(
    text=st.lists(st.sampled_from(["a", "b", "ab", " ", "aa", "ba", "\n", "é"]), max_size=20).map("".join),
    pre=st.sampled_from([NONE, GPT2, WHITESPACE, END_OF_WORD, END_OF_WORD_SEPARATE]),
    moves=st.lists(st.integers(min_value=-3, max_value=4), max_size=12),
)
def test_any_walk_equals_resegmenting_from_scratch(text: str, pre, moves: list[int]) -> None:
    # Merges with reused tokens (two merges making "X") and pairs absent from the text included.
    merges: list[tuple[str, str, str]] = []
    stepper = Stepper.from_text(text, pre, byte_level=False, merges=merges)
    initial = [stepper.word_symbols(i) for i in range(stepper.word_count)]
    merges.extend(naive_merges(initial, stepper.counts, 6) + [("b", "b", "X"), ("a", "b", "X"), ("X", "X", "XX")])
    for move in moves:
        stepper.seek(stepper.step + move)
        expected = from_scratch(stepper, initial, stepper.step)
        assert [stepper.word_symbols(i) for i in range(stepper.word_count)] == expected
        assert stepper.token_count == sum(len(w) * c for w, c in zip(expected, stepper.counts))


def test_replay_measures_each_merge_from_step_zero_on_a_copy() -> None:
    stepper = Stepper.from_text("aaa aa ab", NONE, byte_level=False, merges=[("a", "a", "aa"), ("aa", "a", "aaa")])
    stepper.seek(1)
    measured = [(a.pair_count, a.words_changed, a.occurrences) for a in stepper.replay(stepper.merges)]
    assert measured == [(3, 1, 2), (1, 1, 1)]
    assert stepper.step == 1 and stepper.word_symbols(0)[:2] == ("aa", "a")  # the stepper did not move


@settings(max_examples=80, deadline=None)
@given(
    text=st.lists(st.sampled_from(["a", "b", "ab", " ", "aa", "ba", "\n", "é", "abab"]), max_size=24).map("".join),
    pre=st.sampled_from([NONE, GPT2, WHITESPACE, END_OF_WORD, END_OF_WORD_SEPARATE]),
    targets=st.lists(st.integers(min_value=-1, max_value=12), max_size=10),
    sliced=st.booleans(),
)
def test_jumps_in_slices_and_back_to_the_start_equal_resegmenting_from_scratch(text: str, pre, targets: list[int], sliced: bool) -> None:
    """Far jumps (the app's g / G / j) move in time slices and go back by restarting from step 0
    when that is cheaper: every state on the way equals the from-scratch segmentation, and n / b
    after a restart see the right words (the pair index survives it)."""
    merges: list[tuple[str, str, str]] = []
    stepper = Stepper.from_text(text, pre, byte_level=False, merges=merges)
    initial = [stepper.word_symbols(i) for i in range(stepper.word_count)]
    merges.extend(naive_merges(initial, stepper.counts, 9) + [("b", "b", "X"), ("a", "b", "X"), ("X", "X", "XX")])

    def check() -> None:
        expected = from_scratch(stepper, initial, stepper.step)
        assert [stepper.word_symbols(i) for i in range(stepper.word_count)] == expected
        assert stepper.token_count == sum(len(w) * c for w, c in zip(expected, stepper.counts))

    for target in targets:
        if sliced:  # a deadline already past: one merge per call, as a slow machine would
            while not stepper.seek(target, until=0.0):
                check()
        else:
            assert stepper.seek(target)
        assert stepper.step == max(0, min(target, stepper.available))
        check()
        if stepper.step:
            change = stepper.last_change()
            assert change is not None and change.rank == stepper.step - 1
            stepper.backward()
            check()
            stepper.forward()
            check()
