"""Training runs for any consumer (the app's worker, a benchmark, a test): one event protocol,
two backends.

>>> from bpe_engine.training.bpe import BpeTrainerConfig
>>> from bpe_engine.training.runner import TrainingRequest, run_training
>>> events = list(run_training(TrainingRequest("low lower lowest " * 20, BpeTrainerConfig(vocab_size=260)), backend="thread"))
>>> [type(e).__name__ for e in events][0], [type(e).__name__ for e in events][-1], events[-1].done
('Started', 'Finished', 4)

* :mod:`.events` -- the frozen events (Counting, Started, Steps, Finished / Cancelled / Failed);
* :mod:`.request` -- a corpus and a trainer's own config; :mod:`.trainers` -- the registered trainer
  a request asks for, as one :class:`Training`; :mod:`.session` -- the body of a run, the same code
  in both backends, and :func:`drive`, the one loop over a trainer (the CLI's too);
* backends: ``"thread"`` runs the session in the calling thread; ``"child"``
  (:mod:`.child`) runs it in a child process that is killed on cancel. ``"auto"`` picks the
  child for big corpora and for user regexes (work that could not be interrupted runs where it
  can be killed), the thread for small corpora (a process takes ~0.3 s to start);
* :mod:`.replay` -- a loaded tokenizer's merges replayed over a corpus as the same events.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Literal

from .batching import BATCH_SECONDS, batched
from .events import Cancelled, Counting, Event, Failed, Finished, Started, Steps
from .model_state import ModelState, build_tokenizer
from .replay import replay_events
from .request import TrainerConfig, TrainingRequest
from .session import drive, never, training_events
from .trainers import Training, make_training

Backend = Literal["auto", "thread", "child"]
CHILD_MIN_CHARS = 100_000
"""Corpora at least this long train in a child process (smaller ones finish in well under a second)."""


def choose_backend(request: TrainingRequest, child_min_chars: int = CHILD_MIN_CHARS) -> Literal["thread", "child"]:
    """The child for big corpora and untrusted (user) regexes; the thread otherwise."""
    if not request.trusted or len(request.text) >= child_min_chars:
        return "child"
    return "thread"


def run_training(
    request: TrainingRequest,
    *,
    backend: Backend = "auto",
    cancelled: Callable[[], bool] = never,
    clock: Callable[[], float] = time.monotonic,
    batch_seconds: float = BATCH_SECONDS,
) -> Iterator[Event]:
    """The events of one run; :class:`Finished` arrives with its tokenizer built (in the caller's
    thread, from the picklable :class:`ModelState`, whichever backend trained)."""
    chosen = choose_backend(request) if backend == "auto" else backend
    if chosen == "child":
        from .child import child_events

        events = child_events(request, cancelled=cancelled)
    else:
        events = training_events(request, cancelled=cancelled, clock=clock, batch_seconds=batch_seconds)
    for event in events:
        if isinstance(event, Finished) and event.tokenizer is None and event.model is not None:
            event = replace(event, tokenizer=build_tokenizer(event.model))
        yield event


__all__ = [
    "BATCH_SECONDS",
    "Backend",
    "CHILD_MIN_CHARS",
    "Cancelled",
    "Counting",
    "Event",
    "Failed",
    "Finished",
    "ModelState",
    "Steps",
    "Started",
    "TrainerConfig",
    "Training",
    "TrainingRequest",
    "batched",
    "build_tokenizer",
    "drive",
    "choose_backend",
    "make_training",
    "replay_events",
    "run_training",
]
