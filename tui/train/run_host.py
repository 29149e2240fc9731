"""What a run's events may read and change of the pane that owns the run: the one seam between
:class:`~tui.train.run_events.RunEvents` and :class:`~tui.train.pane.TrainPane`.

``RunEvents`` turns a run's frozen events into the pane's state and views. It used to write the
pane's fields as it pleased; now it sees the pane only through :class:`RunHost`: the run's state
(the fields it changes: run id, training flag, view, stepper, tokenizer, step log, step k), what it
reads (the corpus cut, the runner, the clock, whether the steps are playing), the views it updates
(typed, no ``query_one`` by class), and the few moves of the pane it asks for. mypy checks that the
pane is one (``TrainPane`` is passed where a ``RunHost`` is asked for).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # pragma: no cover
    from textual.message import Message
    from textual.notifications import SeverityLevel

    from bpe_engine.explore.train_stepper import TrainStepper
    from bpe_engine.types import Tokenizer

    from .corpus_pane import CorpusCut, CorpusPane
    from .pane import Runner
    from .progress_panel import ProgressPanel
    from .runs import RunView
    from .segmented_view import SegmentedView
    from .settings_form import SettingsForm
    from .step_detail import StepDetail
    from .step_log import StepLog
    from .step_table import StepTable


class RunHost(Protocol):
    """The pane, as a run's events see it."""

    # -- the run's state: RunEvents changes these ---------------------------------------------------
    run_id: int
    """Events of any other run are dropped (a cancelled or superseded run never touches the screen)."""
    training: bool
    view: RunView | None
    stepper: TrainStepper | None
    tokenizer: Tokenizer | None
    step_log: StepLog
    current_step: int

    # -- what it reads -------------------------------------------------------------------------------
    corpus_cut: CorpusCut | None
    runner: Runner
    clock: Callable[[], float]

    @property
    def playing(self) -> bool: ...

    # -- the views it updates ------------------------------------------------------------------------
    @property
    def corpus_pane(self) -> CorpusPane: ...

    @property
    def settings_form(self) -> SettingsForm: ...

    @property
    def progress_panel(self) -> ProgressPanel: ...

    @property
    def step_table(self) -> StepTable: ...

    @property
    def segmented_view(self) -> SegmentedView: ...

    @property
    def step_detail(self) -> StepDetail: ...

    # -- the pane's moves ------------------------------------------------------------------------------
    def pause(self) -> None:
        """Stop playing the steps."""
        ...

    def show_step(self) -> None:
        """Draw every view for the stepper's step."""
        ...

    def changed(self) -> None:
        """Tell the app at once that the run, the model or the step changed."""
        ...

    def start_worker(self, work: Callable[[], None], *, group: str, description: str) -> None:
        """Run ``work`` in a thread of ``group`` (a newer one of the group replaces it)."""
        ...

    def cancel_workers(self, group: str) -> None: ...

    def set_header(self, text: str) -> None:
        """The app's sub-title: a loaded tokenizer's name, or nothing for a run of our own."""
        ...

    def run_finished(self, tokenizer: Tokenizer) -> None:
        """Say a run finished with ``tokenizer`` (a save asked for while it trained goes now)."""
        ...

    def bindings_changed(self) -> None:
        """The keys on offer follow the run ("esc Cancel" while it trains)."""
        ...

    def notify(self, message: str, *, severity: SeverityLevel = ..., timeout: float | None = ...) -> None: ...

    def post_message(self, message: Message) -> bool: ...


__all__ = ["RunHost"]
