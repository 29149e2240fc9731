"""The Train tab: one pane for every trainer. It owns the run, the stepper, the step log and the step.

Left: the corpus, the settings of the chosen model, the progress. Right: the step list (columns
per model), the corpus at step k, and why step k won. The pane runs training through the engine's
runner (a worker forwards its frozen events tagged with a run id; stale runs are dropped), builds
the stepper of a started run off the UI thread, keeps the steps in an immutable
:class:`~tui.train.step_log.StepLog`, and moves the step (:mod:`.stepping`). What the other tabs
draw goes up as :class:`TrainPane.StateChanged`; the app routes it to the visible pane.

The last good run stays explorable until a new run has *started* (its corpus is cut and the trainer
accepted the settings): a refused or cancelled run never wipes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import var
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, TextArea

from bpe_engine.core.block_text import Text as CorpusText
from bpe_engine.core.block_text import whole
from bpe_engine.explore.train_stepper import StepModels
from bpe_engine.training.runner import Event, TrainingRequest
from bpe_engine.training.steps import MergeStep
from bpe_engine.types import Tokenizer

from ..messages import StepReady, TrainingEvent
from ..state import ExplorerState
from .corpus_pane import CorpusCut, CorpusPane
from .progress_panel import ProgressPanel
from .run_events import RunEvents
from .runs import AnyStepper, RunView
from .segmented_view import SegmentedView
from .settings_form import SettingsForm
from .step_detail import StepDetail
from .step_log import StepLog
from .step_table import StepTable
from .stepping import SPEEDS, Stepping

Runner = Callable[[TrainingRequest, Callable[[], bool]], Iterator[Event]]
"""How the pane runs a request: the engine's runner by default; a test gives a slower one."""

NARROW_VIEWS = ("show-setup", "show-steps", "show-why")
"""The Train tab's views on a small terminal, in the order f5 cycles them."""
STEP_SETTLE = 0.15  # seconds a step must stay before the other tabs are told (no redraw per key)


class TrainPane(Horizontal):
    """Train any model, step through its steps, see why each won."""

    HELP_TITLE = "the Train tab (the step list, the corpus, the form)"
    # Priority: a step key acts before the focused widget sees it -- the keys right after j (the
    # rank typed at once) then reach the jump prompt -- except inside a text field (check_action).
    BINDINGS = [
        Binding("f5", "next_view", "Pane", priority=True, tooltip="a small terminal shows one view: setup, steps or why"),
        Binding("n", "next", "Next", priority=True, tooltip="the next step"),
        Binding("b", "prev", "Back", priority=True, tooltip="the previous step"),
        Binding("space", "play", "Play", priority=True, tooltip="play the steps (space again pauses)"),
        Binding("j", "jump", "Jump", priority=True, tooltip="jump to a step by number"),
        Binding("g", "first", "First", show=False, priority=True, tooltip="back to step 0"),
        Binding("G", "last", "Last", show=False, priority=True, tooltip="the last step so far"),
        Binding("plus,equals_sign", "faster", "Faster", show=False, priority=True, tooltip="play faster"),
        Binding("minus", "slower", "Slower", show=False, priority=True, tooltip="play slower"),
    ]

    class StateChanged(Message):
        """The step, the model or the run changed: the tab on screen may draw again."""

    class RunFinished(Message):
        """A run finished with ``tokenizer`` (a save asked for while it trained goes now)."""

        def __init__(self, tokenizer: Tokenizer) -> None:
            super().__init__()
            self.tokenizer = tokenizer

    current_step: var[int] = var(0)
    """How many steps the corpus view applies (the Inspect/Compare tabs read it via the state)."""

    def __init__(
        self, corpus: CorpusText, *, source: str, vocab_size: int, runner: Runner, clock: Callable[[], float], id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self._corpus, self._source, self._vocab_size = corpus, source, vocab_size
        self.runner = runner
        self.clock = clock  # times a run from the user's ctrl+t to its "done"
        self.run_id = 0
        self.training = False
        self.stepper: AnyStepper | None = None
        self.tokenizer: Tokenizer | None = None
        self.model_state: Any = None  # the finished run's recipe, for its trainer's own save (None: loaded)
        self.step_log = StepLog()
        self.view: RunView | None = None  # how the shown steps are drawn (text, alphabet, model)
        self.corpus_cut: CorpusCut | None = None  # the corpus pane's last cut, reused by a run
        self.stepping = Stepping(self)
        self.runs = RunEvents(self)
        self._settle: Timer | None = None
        self._spelled: tuple[CorpusText, str] | None = None  # a big corpus spelled out for the state

    def compose(self) -> ComposeResult:
        with Vertical(id="train-left"):
            corpus, self._corpus = self._corpus, ""  # the corpus pane holds it from here on
            yield CorpusPane(corpus, source=self._source, id="corpus")
            yield SettingsForm(vocab_size=self._vocab_size, id="settings")
            yield ProgressPanel(id="progress")
        with Vertical(id="train-right"):
            yield StepTable(id="steps")
            yield SegmentedView(id="segmented")
            yield StepDetail(id="detail")

    def on_mount(self) -> None:
        self.query_one(ProgressPanel).show_idle()
        self.query_one(SegmentedView).show_empty("no steps yet: press ctrl+t to train on this corpus")
        self.query_one(StepDetail).show_none()

    # -- what the other tabs draw ----------------------------------------------------------------
    @property
    def state(self) -> ExplorerState:
        """The one state every pane draws from (frozen; built fresh, cheap)."""
        view, corpus = self.view, self.query_one(CorpusPane)
        return ExplorerState(
            corpus=self._whole(view.text if view is not None else corpus.text),
            corpus_label=corpus.source,
            merges=self.step_log,
            initial_tokens=(self.stepper.initial_token_count or 0) if self.stepper is not None else 0,
            tokenizer=self.tokenizer,
            step=self.current_step,
            training=self.training,
            source=view.label if view is not None else "",
            step_models=self._step_models(),
            initial_types=self.stepper.initial_types if self.stepper is not None else None,
            merges_at=self.stepper.merges_at if self.stepper is not None else None,
        )

    def _step_models(self) -> StepModels | None:
        """The read-only view of a stepper that models every step (the state's, for workers)."""
        stepper, view = self.stepper, self.view
        if stepper is None or view is None or not stepper.models_per_step:
            return None
        return StepModels(stepper, stepper.available, f"no model {view.spec.start_label or 'before the first step'}")

    def _whole(self, text: CorpusText) -> str:
        """``text`` as one ``str``, for the state (Compare's chart encodes the corpus whole).

        A big corpus is held in blocks; it is spelled out here only when a tab that takes the state
        is shown, and kept for as long as the same corpus is (spelling 50 MB out takes ~0.1 s).
        """
        if isinstance(text, str):
            return text
        if self._spelled is None or self._spelled[0] is not text:
            self._spelled = (text, whole(text))
        return self._spelled[1]

    def watch_current_step(self) -> None:
        if self._settle is not None:
            self._settle.stop()
        self._settle = self.set_timer(STEP_SETTLE, lambda: self.post_message(self.StateChanged()))

    def changed(self) -> None:
        """Tell the app at once (a run started, finished or was cancelled)."""
        self.post_message(self.StateChanged())

    # -- what a run's events see of the pane (run_host.RunHost) ------------------------------------
    @property
    def playing(self) -> bool:
        return self.stepping.playing

    @property
    def corpus_pane(self) -> CorpusPane:
        return self.query_one(CorpusPane)

    @property
    def settings_form(self) -> SettingsForm:
        return self.query_one(SettingsForm)

    @property
    def progress_panel(self) -> ProgressPanel:
        return self.query_one(ProgressPanel)

    @property
    def step_table(self) -> StepTable:
        return self.query_one(StepTable)

    @property
    def segmented_view(self) -> SegmentedView:
        return self.query_one(SegmentedView)

    @property
    def step_detail(self) -> StepDetail:
        return self.query_one(StepDetail)

    def start_worker(self, work: Callable[[], None], *, group: str, description: str) -> None:
        self.run_worker(work, thread=True, exclusive=True, exit_on_error=False, group=group, description=description)

    def cancel_workers(self, group: str) -> None:
        self.workers.cancel_group(self, group)

    def set_header(self, text: str) -> None:
        self.app.sub_title = text

    def bindings_changed(self) -> None:
        self.app.refresh_bindings()

    def run_finished(self, tokenizer: Tokenizer) -> None:
        self.post_message(self.RunFinished(tokenizer))

    @property
    def trained(self) -> TrainingRequest | None:
        """The settings of the run shown (None for a loaded tokenizer or before any run)."""
        return self.runs.trained

    def trained_merges(self) -> list[MergeStep] | None:
        """The merges of the run shown, with their counts and whys, when it was trained here (a
        save keeps them in training.jsonl); None for a loaded tokenizer or a run of no merges."""
        if self.view is None or self.view.request is None:
            return None
        merges = [s for s in self.step_log if isinstance(s, MergeStep)]
        return merges or None

    # -- runs ------------------------------------------------------------------------------------
    def train(self) -> None:
        """Start (or restart) training with the form's settings; a running run is superseded.

        ctrl+t runs as soon as it arrives, while keys typed just before it may still wait in the
        focused field's queue (a field only applies its keys in its own turn): read then, the form
        gave the old vocab. So a field being typed into first applies what it was given."""
        focused = self.screen.focused
        if isinstance(focused, (Input, TextArea)):
            focused.call_later(self.runs.train_now)
        else:
            self.runs.train_now()

    def cancel(self) -> None:
        self.runs.cancel()

    def explore(self, tokenizer: Tokenizer, label: str) -> None:
        """Step through a loaded tokenizer's merges on the current corpus; the form shows its settings."""
        self.runs.replay(tokenizer, label)

    def open_corpus(self, text: CorpusText, name: str) -> None:
        self.query_one(CorpusPane).load(text, name)
        view = self.view
        if view is not None and view.request is None and self.tokenizer is not None and not self.training:
            # A loaded tokenizer's merges do not depend on the corpus: show them on the new one.
            # Trained steps belong to their corpus; the retrain offer says it changed.
            self.runs.replay(self.tokenizer, view.label)

    def on_training_event(self, message: TrainingEvent) -> None:
        message.stop()
        self.runs.handle(message)

    def on_step_ready(self, message: StepReady) -> None:
        if message.stepper is self.stepper and message.step == self.stepper.step:
            self.show_step()

    def on_corpus_pane_edited(self, message: CorpusPane.Edited) -> None:
        self.corpus_cut = None
        self.runs.check_stale()

    def on_corpus_pane_facts(self, message: CorpusPane.Facts) -> None:
        self.corpus_cut = message.cut
        self.query_one(SettingsForm).show_pattern_warning(message.pattern_warning or "")

    def on_settings_form_changed(self, message: SettingsForm.Changed) -> None:
        front = self.query_one(SettingsForm).pre_tokenizer()
        if front is not None:
            self.query_one(CorpusPane).set_pre_tokenizer(front)
        self.runs.check_stale()

    def on_button_pressed(self, event) -> None:  # noqa: ANN001 - Button.Pressed
        if event.button.id == "train-button":
            self.train()
        elif event.button.id == "cancel-button":
            self.cancel()

    # -- stepping --------------------------------------------------------------------------------
    def _can_step(self) -> bool:
        if self.stepper is None or not self.stepper.available:
            self.notify("No steps yet: train first (ctrl+t) or load a tokenizer (ctrl+l).", timeout=3)
            return False
        return True

    def seek(self, step: int) -> None:
        """Move the corpus view to ``step`` steps applied (clamped); the one way the step moves."""
        if not self._can_step() or self.stepper is None:
            return
        if self.has_class("narrow") and self.has_class("show-setup"):
            self.show_view("show-steps")  # on a small terminal, stepping brings the steps forward
        self.stepping.seek(self.stepper, step)

    def action_next(self) -> None:
        if self._can_step() and self.stepper is not None:
            self.seek(self.stepping.heading(self.stepper) + 1)

    def action_prev(self) -> None:
        if self._can_step() and self.stepper is not None:
            self.seek(self.stepping.heading(self.stepper) - 1)

    def action_first(self) -> None:
        self.seek(0)

    def action_last(self) -> None:
        if self.stepper is not None:
            self.seek(self.stepper.available)

    def action_jump(self) -> None:
        from ..screens import JumpScreen

        if self._can_step() and self.stepper is not None:
            self.app.push_screen(JumpScreen(self.stepper.available), lambda k: None if k is None else self.seek(k))

    def on_step_table_selected(self, message: StepTable.Selected) -> None:
        self.seek(message.step)

    def action_play(self) -> None:
        if self.stepping.pause():
            self.show_step()
        elif self._can_step():
            self.stepping.play()
            self.notify(f"playing at {SPEEDS[self.stepping.speed]} steps/s (+/- to change, space to pause)", timeout=2)
            self.show_step()

    def pause(self) -> None:
        if self.stepping.pause():
            self.show_step()

    def action_faster(self) -> None:
        self.notify(f"play speed: {self.stepping.set_speed(self.stepping.speed + 1)} steps/s", timeout=2)

    def action_slower(self) -> None:
        self.notify(f"play speed: {self.stepping.set_speed(self.stepping.speed - 1)} steps/s", timeout=2)

    def show_step(self) -> None:
        """Draw every view for the stepper's step; a step the stepper must prepare first (a Unigram
        step's model) is prepared in a worker."""
        stepper, view = self.stepper, self.view
        if stepper is None or view is None:
            return
        self.query_one(SegmentedView).show(stepper, view.text, byte_level=view.byte_level, playing=self.stepping.playing)
        self.query_one(StepDetail).show_step(stepper, self.step_log, byte_level=view.byte_level)
        self.query_one(StepTable).select_step(stepper.step)
        if not stepper.ready():
            self.runs.prepare(stepper)
        self.current_step = stepper.step

    # -- a small terminal shows one view at a time -------------------------------------------------
    def set_narrow(self, narrow: bool) -> None:
        self.set_class(narrow, "narrow")
        if narrow and not any(self.has_class(v) for v in NARROW_VIEWS):
            self.add_class(NARROW_VIEWS[0])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Step keys act anywhere on the Train tab but in a text field or a prompt (the key then
        goes on to them); f5 only on a small terminal, which has views to cycle."""
        if action == "next_view":
            return self.has_class("narrow")
        if isinstance(self.app.screen, ModalScreen):
            return False
        focused = self.screen.focused
        return not (isinstance(focused, Input) or (isinstance(focused, TextArea) and not focused.read_only))

    def action_next_view(self) -> None:
        """f5 on a small terminal: the next Train view (setup -> steps -> why)."""
        current = next((i for i, v in enumerate(NARROW_VIEWS) if self.has_class(v)), 0)
        self.show_view(NARROW_VIEWS[(current + 1) % len(NARROW_VIEWS)])

    def show_view(self, view: str) -> None:
        self.remove_class(*NARROW_VIEWS)
        self.add_class(view)
        table = self.query_one(StepTable)
        if view != "show-setup" and self.screen.focused is not table:
            table.focus()  # the keyboard follows the eye (stepping keys)


__all__ = ["NARROW_VIEWS", "Runner", "TrainPane"]
