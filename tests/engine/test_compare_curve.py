"""The compression curve follows from MergeStep.occurrences, checked against re-encoding."""

from __future__ import annotations

from bpe_engine.compare import compression_curve, initial_symbol_count, reference_level
from bpe_engine.pretokenizers import END_OF_WORD, GPT2, WHITESPACE
from bpe_engine.training.steps import MergeStep
from tests.engine.test_inspect_fixtures import hand_tokenizer


def _step(rank: int, occurrences: int) -> MergeStep:
    return MergeStep(rank, "a", "b", "ab", 0, 1, 2, occurrences, 1, occurrences)


def test_curve_subtracts_fused_pairs_per_merge() -> None:
    points = compression_curve([_step(0, 3), _step(1, 2), _step(2, 1)], initial_tokens=12, corpus_chars=6)
    assert [(p.merges, p.tokens, p.tokens_per_char) for p in points] == [(0, 12, 2.0), (1, 9, 1.5), (2, 7, 7 / 6), (3, 6, 1.0)]


def test_curve_matches_re_encoding_a_hand_made_bpe() -> None:
    # "aaab aab": byte-level, merges (a a) then (aa b). Re-encoding by hand:
    # start 8 symbols (incl. space); a a fuses once per word -> 6; aa b once per word -> 4.
    steps = [_step(0, 2), _step(1, 2)]
    initial = initial_symbol_count("aaab aab", GPT2, byte_level=True)
    assert initial == 8
    assert [p.tokens for p in compression_curve(steps, initial_tokens=initial, corpus_chars=8)] == [8, 6, 4]


def test_thinning_keeps_both_ends() -> None:
    points = compression_curve([_step(i, 1) for i in range(1000)], initial_tokens=2000, corpus_chars=2000, max_points=50)
    assert len(points) <= 50 and points[0].merges == 0 and points[-1].merges == 1000 and points[-1].tokens == 1000


def test_initial_symbols_per_pre_tokenizer_style() -> None:
    assert initial_symbol_count("한 a", GPT2, byte_level=True) == 5
    assert initial_symbol_count("한 a", GPT2, byte_level=False) == 3
    assert initial_symbol_count("ab  cd", END_OF_WORD, byte_level=False) == 4  # whitespace dropped
    assert initial_symbol_count("ab cd", WHITESPACE, byte_level=False) == 6  # ▁ab ▁cd
    assert initial_symbol_count("", GPT2, byte_level=True) == 0


def test_reference_level_is_tokens_per_character() -> None:
    level = reference_level(hand_tokenizer(), "hello hello")
    assert level.tokens == 3 and level.tokens_per_char == 3 / 11 and level.name == "hand"
    assert reference_level(hand_tokenizer(), "").tokens_per_char == 0.0
