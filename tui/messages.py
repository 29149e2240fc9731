"""The app's message protocol.

Worker -> app: :class:`TrainingEvent` wraps one frozen event of
:mod:`bpe_engine.training.runner` (Counting, Started, Steps, Finished, Cancelled, Failed) with the run id
of the run that produced it. The app keeps the id of the current run and drops anything else, so
a cancelled or superseded run can never touch the screen. The worker forwards the runner's events
as they come; with :class:`Started` it hands over the stepper it built from the event's words (off
the UI thread) and keeps no reference to it -- it never touches anything the UI holds.

App -> panes is not a message: the app sets ``pane.state`` (a frozen
:class:`~tui.state.ExplorerState`) on the visible pane (attributes down).
"""

from __future__ import annotations

from typing import Any

from textual.message import Message

from bpe_engine.training.runner import Event


class TrainingEvent(Message):
    """One event of run ``run_id`` (data: never coalesced); ``stepper`` comes with a Started."""

    def __init__(self, run_id: int, event: Event, stepper: Any = None) -> None:
        super().__init__()
        self.run_id = run_id
        self.event = event
        self.stepper = stepper  # a tui.train.runs.AnyStepper (not imported here: the app imports this first)


class StepReady(Message):
    """The model of Unigram step ``step`` of ``stepper`` is built: the step can be drawn."""

    def __init__(self, stepper: Any, step: int) -> None:
        super().__init__()
        self.stepper = stepper
        self.step = step
