"""Corpora that defeat block planning: streams (pipes, FIFOs, devices) are read as streams, and a
stretch with no place to cut it is stopped by the memory guard before it is read.

A pipe was planned from ``st_size`` (0) and counted as empty; a 2 GB file of NUL bytes (one
piece for gpt2) was read whole and used 16 GB in 9 s; the table watch sampled the length of a
few words, so one huge word among many small ones went unseen.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bpe_engine.corpus import count_files
from bpe_engine.corpus.table_size import HELD_BYTES_PER_BYTE, TableWatch, UncutTooLarge, WordTableTooLarge, training_bytes
from bpe_engine.pretokenizers import GPT2, WHITESPACE

MIB = 1 << 20
TEXT = "the cat sat on the mat, 한국어 텍스트는 바이트로.\n" * 2_000


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    """A named pipe that a thread fills with ``TEXT`` once a reader opens it."""
    path = tmp_path / "corpus.fifo"
    os.mkfifo(path)
    writer = threading.Thread(target=lambda: path.write_bytes(TEXT.encode("utf-8")), daemon=True)
    writer.start()
    yield path
    writer.join(5)


@pytest.mark.parametrize("lines", [False, True])
def test_a_pipe_is_read_as_a_stream_and_counts_as_the_file_does(tmp_path: Path, fifo: Path, lines: bool) -> None:
    file = tmp_path / "corpus.txt"
    file.write_text(TEXT, encoding="utf-8")
    from_file = count_files([file], GPT2, byte_level=True, lines=lines, workers=1)
    from_pipe = count_files([fifo], GPT2, byte_level=True, lines=lines, workers=1)
    assert len(from_pipe) > 10 and list(from_pipe.counts.items()) == list(from_file.counts.items())
    assert from_pipe.documents == from_file.documents


def test_a_stretch_without_a_cut_point_stops_before_it_is_read(tmp_path: Path) -> None:
    """8 MiB of NUL bytes (one gpt2 piece) against a budget that holds 1 MiB of such a stretch:
    refused naming the file, having read little more than that."""
    path = tmp_path / "zeros"
    with path.open("wb") as handle:
        handle.truncate(8 * MIB)
    with pytest.raises(UncutTooLarge, match=r"zeros: 1\.\d MiB or more from byte offset .* no place to cut") as stop:
        count_files([path], GPT2, byte_level=True, workers=1, block_bytes=MIB // 4, memory_budget=HELD_BYTES_PER_BYTE * MIB)
    assert "--lines for text with line breaks" in str(stop.value) and "--memory-limit" in str(stop.value)


def test_a_file_counted_whole_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """The whitespace pre-tokenizer cannot cut inside a document: the file's size decides."""
    path = tmp_path / "big.txt"
    path.write_text("word " * 400_000, encoding="utf-8")  # 2 MB
    with pytest.raises(UncutTooLarge, match=r"big\.txt: 1\.9 MiB from byte offset 0 .*cannot cut inside a document"):
        count_files([path], WHITESPACE, byte_level=False, workers=1, memory_budget=HELD_BYTES_PER_BYTE * MIB)


def test_an_endless_device_is_read_as_a_stream_and_stopped() -> None:
    with pytest.raises(UncutTooLarge, match=r"/dev/zero: .* no place to cut"):
        count_files(["/dev/zero"], GPT2, byte_level=True, workers=1, block_bytes=MIB // 4, memory_budget=HELD_BYTES_PER_BYTE * MIB)


def test_the_watch_counts_every_character_of_every_word() -> None:
    """100,000 words of 6 characters and one of 4 million, where a sample of every 24th word
    would not see it: the budget holds the small words, not the big one."""
    table = {f"w{i:05d}": 1 for i in range(100_000)}
    table = {"w00000": 1, "x" * 4_000_000: 1, **table}
    budget = training_bytes(100_001, 8.0) * 2
    with pytest.raises(WordTableTooLarge, match="will not fit in memory"):
        TableWatch(None, budget).update(1000, table)
