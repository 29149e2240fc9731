"""A word table too large for memory is said early: a projection warns once, long before the
table counted so far is too large to train, which stops counting with the ways out."""

from __future__ import annotations

import pytest

from bpe_engine.corpus import count_files
from bpe_engine.corpus.table_size import TableWatch, WordTableTooLarge, training_bytes
from bpe_engine.pretokenizers import GPT2


def test_the_projection_warns_early_and_the_stop_comes_later_with_the_ways_out() -> None:
    """A table growing like Heaps' law (words ~ bytes ** 0.7) against half the memory it will need."""
    total = 10**7
    watch = TableWatch(total, training_bytes(int(total**0.7 * 0.5), 8.0))
    table: dict[str, int] = {}
    warnings: list[tuple[int, str]] = []
    with pytest.raises(WordTableTooLarge, match=r"will not fit in memory: [\d,]+ distinct words .* ways out: --min-word-count K") as stop:
        for step in range(1, 1001):
            done = total * step // 1000
            while len(table) < int(done**0.7):
                table[f"w{len(table):07d}"] = 1
            warning = watch.update(done, table)
            if warning:
                warnings.append((done, warning))
    assert len(warnings) == 1 and "may not fit in memory" in warnings[0][1] and "--memory-limit" in warnings[0][1]
    assert warnings[0][0] <= total // 20  # said within the first twentieth of the corpus
    assert done > total // 4 and "of 9.5 MiB" in str(stop.value)  # the stop waits for the table itself, not a guess


def test_a_table_that_fits_is_never_warned_about(tmp_path) -> None:
    path = tmp_path / "c.txt"
    path.write_text("the same few words again\n" * 20_000, encoding="utf-8")
    notes = []
    count_files([path], GPT2, byte_level=True, block_bytes=4096, memory_budget=10**8, progress=lambda p: notes.append(p.warning))
    assert len(notes) > 50 and not any(notes)


def test_counting_only_needs_less_than_training() -> None:
    table = {f"w{i}": 1 for i in range(10_000)}
    budget = training_bytes(10_000, 5.0) // 2
    with pytest.raises(WordTableTooLarge, match="to train"):
        TableWatch(None, budget).update(1000, table)
    assert TableWatch(None, budget, training=False).update(1000, table) is None
