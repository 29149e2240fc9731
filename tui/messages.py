"""The app's message protocol.

Worker -> app: :class:`TrainingEvent` wraps one frozen event of
:mod:`bpe_engine.training_runner` (Counting, Started, Merges, Finished, Cancelled, Failed) with the run id
of the run that produced it. The app keeps the id of the current run and drops anything else, so
a cancelled or superseded run can never touch the screen. The worker only forwards: it posts the
runner's events as they come and never builds or mutates anything the UI holds.

App -> panes is not a message: the app sets ``pane.state`` (a frozen
:class:`~tui.state.ExplorerState`) on the visible pane (attributes down).
"""

from __future__ import annotations

from textual.message import Message

from bpe_engine.training_runner import Event


class TrainingEvent(Message):
    """One event of run ``run_id`` (data: never coalesced)."""

    def __init__(self, run_id: int, event: Event) -> None:
        super().__init__()
        self.run_id = run_id
        self.event = event
