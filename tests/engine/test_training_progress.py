"""A big corpus shows progress while it is cut into words, before any merge (a 50 MB corpus took
~40 s of a bare "counting words…" in the app), in a thread and in the child process alike (its events cross a pipe)."""

from __future__ import annotations

import os

from bpe_engine.corpus.cut import PROGRESS_CHARS
from bpe_engine.training.bpe import BpeTrainerConfig
from bpe_engine.training.runner import Counting, Finished, Started, TrainingRequest
from bpe_engine.training.runner.frames import read_frame, write_frame
from bpe_engine.training.runner.session import training_events

TEXT = "the lower newest, 한국어 wider " * (3 * PROGRESS_CHARS // 28)


def test_counting_progress_comes_before_started() -> None:
    events = list(training_events(TrainingRequest(TEXT, BpeTrainerConfig(vocab_size=262)), batch_seconds=0))
    kinds = [type(e) for e in events]
    counting = [e for e in events if isinstance(e, Counting)]
    assert len(counting) >= 2 and kinds.index(Started) > kinds.index(Counting)
    assert all(e.total == len(TEXT) and 0 < e.done <= e.total for e in counting)
    assert [e.done for e in counting] == sorted({e.done for e in counting}), "progress only moves forward"
    assert isinstance(events[-1], Finished)


def test_counting_crosses_the_child_pipe() -> None:
    """The child sends every event through frames: Counting must survive the trip."""
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "wb") as sink, os.fdopen(read_end, "rb") as source:
        write_frame(sink, Counting(5, 10))
        sink.flush()
        assert read_frame(source) == Counting(5, 10)
