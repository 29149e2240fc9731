"""The app's message protocol: what the training worker posts, and what the app tells the panes.

Worker -> app (posted from the worker thread with ``post_message``, which is thread-safe). Every
message carries the ``run_id`` of the run that produced it; the app keeps the id of the current
run and drops anything else, so a cancelled or superseded run can never touch the screen:

* :class:`TrainingStarted` -- the corpus is counted and the stepper is built; merges follow.
* :class:`TrainingBatch` -- the merges made since the last batch (about every 100 ms), with
  progress (done / target) and the measured merges per second. Batches are data: never coalesced.
* :class:`TrainingFinished` -- the generator is exhausted; carries the finished tokenizer.
* :class:`TrainingFailed` -- a user error (message says how to fix it) or a bug; shown, not raised.

App -> panes (the Inspect and Compare tabs of issue 5 subscribe to these):

* :class:`StepChanged` -- the current step k moved or a new tokenizer arrived. It is posted to
  every ``InspectorPane`` and ``ComparePane`` (handle it with ``on_step_changed``) once the step
  settles (debounced ~0.15 s, so playing the animation does not flood them). Besides the message,
  the app exposes the same state for panes that prefer to pull it:

  - ``app.current_step: int`` -- a reactive (``self.watch(self.app, "current_step", ...)``);
  - ``app.tokenizer_at_step() -> Tokenizer | None`` -- the tokenizer with the first k merges, or
    None while no tokenizer exists (before training finishes and before a file is loaded).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from bpe_engine.types import MergeStep, Tokenizer

if TYPE_CHECKING:
    from bpe_engine.stepper import Stepper


class TrainingStarted(Message):
    """The run has its stepper (corpus pre-tokenized) and knows how many merges it aims for."""

    def __init__(self, run_id: int, stepper: Stepper, target: int, notes: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.run_id = run_id
        self.stepper = stepper
        self.target = target
        self.notes = notes


class TrainingBatch(Message):
    """Merges made since the previous batch. ``done`` counts all merges of the run so far."""

    def __init__(self, run_id: int, steps: tuple[MergeStep, ...], done: int, target: int, rate: float) -> None:
        super().__init__()
        self.run_id = run_id
        self.steps = steps
        self.done = done
        self.target = target
        self.rate = rate


class TrainingFinished(Message):
    """The trainer's generator ended; ``tokenizer`` holds every merge of the run."""

    def __init__(self, run_id: int, tokenizer: Tokenizer | None, done: int, seconds: float) -> None:
        super().__init__()
        self.run_id = run_id
        self.tokenizer = tokenizer
        self.done = done
        self.seconds = seconds


class TrainingFailed(Message):
    """The run stopped on an error; ``message`` is shown to the user as it is."""

    def __init__(self, run_id: int, message: str) -> None:
        super().__init__()
        self.run_id = run_id
        self.message = message


@dataclass(frozen=True)
class TokenizerSource:
    """Where the current merges come from: a training run or a loaded file (shown in the title)."""

    label: str
    byte_level: bool


class StepChanged(Message):
    """The current step moved (or the tokenizer changed). ``tokenizer_provider()`` builds the
    tokenizer with the first ``step`` merges on demand (None when no tokenizer exists yet), so a
    pane that is not visible pays nothing."""

    def __init__(self, tokenizer_provider: Callable[[], Tokenizer | None], step: int) -> None:
        super().__init__()
        self.tokenizer_provider = tokenizer_provider
        self.step = step
