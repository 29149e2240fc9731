"""The explorer app: composes the panes and routes messages and keys between them.

Attributes go down (the app calls widget methods), messages come up (widgets and the training
worker post). Tokenizer logic lives in ``bpe_engine``; stepping state lives in the
:class:`~bpe_engine.stepper.Stepper`; this module only decides *who* is told *what*.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.notifications import SeverityLevel
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Footer, Header, Static, TabbedContent, TabPane, TextArea
from textual.worker import Worker, WorkerState, get_current_worker

from bpe_engine.display import visible_text
from bpe_engine.stepper import Stepper
from bpe_engine.types import MergeStep, Tokenizer

from .commands import ExplorerCommands
from .compare import ComparePane
from .train.corpus_pane import CorpusPane
from .train.derivation_view import DerivationView
from .inspect import InspectorPane
from .train.merge_table import MergeTable
from .messages import StepChanged, TrainingBatch, TrainingFailed, TrainingFinished, TrainingStarted
from .train.progress_panel import ProgressPanel
from .file_actions import FileActions
from .screens import ACTION_HELP, KEY_NAMES, HelpScreen, JumpScreen
from .train.segmented_view import SegmentedView
from .train.settings_form import SettingsForm
from .gc_pause import collector_paused
from .training import TrainRequest, run_replay, run_training

SPEEDS = (1, 2, 5, 10, 25, 50, 100)  # merges per second while playing
NARROW_WIDTH = 110
STEP_SETTLE = 0.15
TABLE_FLUSH = 0.4  # seconds between merge-list updates while training
SWITCH_INTERVAL = 0.001  # seconds (Python's default is 0.005)
_TABS = Binding.Group("Tabs")


TAB_FOCUS: dict[str, str] = {"train-tab": "#merges", "inspect-tab": "#inspect-input", "compare-tab": "#compare-text"}
"""Which widget takes the keyboard when a tab is shown."""


class ExplorerApp(FileActions, App[None]):
    """bpe-explorer: train BPE on a corpus in the background and step through every merge."""

    CSS_PATH = ["app.tcss", "train/train.tcss", "inspect/inspect.tcss", "compare/compare.tcss"]
    TITLE = "bpe-explorer"
    AUTO_FOCUS = "#merges"  # stepping keys work at once; click or tab into the corpus to edit it
    COMMANDS = App.COMMANDS | {ExplorerCommands}
    BINDINGS = [
        Binding("ctrl+t", "train", "Train", priority=True),
        Binding("escape", "cancel", "Cancel"),
        Binding("n", "next", "Next"),
        Binding("b", "prev", "Back"),
        Binding("space", "play", "Play"),
        Binding("j", "jump", "Jump"),
        Binding("g", "first", "First", show=False),
        Binding("G", "last", "Last", show=False),
        Binding("plus,equals_sign", "faster", "Faster", show=False),
        Binding("minus", "slower", "Slower", show=False),
        Binding("ctrl+o", "open_corpus", "Open", priority=True),
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("ctrl+l", "load_tokenizer", "Load tok.", show=False, priority=True),
        Binding("f1,question_mark", "help", "Help"),
        # One footer entry for the three tab keys ("f2 f3 f4 Tabs"): the footer is full at 120 columns.
        Binding("f2", "show_tab('train-tab')", "Train tab", group=_TABS, priority=True),
        Binding("f3", "show_tab('inspect-tab')", "Inspect tab", group=_TABS, priority=True),
        Binding("f4", "show_tab('compare-tab')", "Compare tab", group=_TABS, priority=True),
    ]

    current_step: var[int] = var(0)
    """How many merges the corpus view applies (documented for the Inspect/Compare panes; a
    ``var``: watchable, but changing it does not repaint the whole app)."""

    def __init__(self, corpus: str = "", *, source: str = "sample corpus", vocab_size: int = 1000) -> None:
        super().__init__()
        self._corpus = corpus
        self._source = source
        self._vocab_size = vocab_size
        self.clock: Callable[[], float] = time.monotonic  # tests stub it for deterministic rates
        self.stop_after: int | None = None  # test hook: leave the run mid-training after N merges
        self.throttle = 0.0  # test hook: seconds the worker sleeps per merge (slow runs on small corpora)
        self.run_id = 0
        self.training = False
        self.stepper: Stepper | None = None
        self.tokenizer: Tokenizer | None = None
        self._view_text = ""
        self._view_byte_level = True
        self._trained: TrainRequest | None = None
        self._playing: Timer | None = None
        self._speed = 3  # index into SPEEDS
        self._settle: Timer | None = None
        self._at_step_cache: tuple[int, Tokenizer | None] | None = None
        self._target = 0
        self._pending_rows: list[MergeStep] = []
        self._flush_timer: Timer | None = None

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="≡")
        with TabbedContent(id="tabs"):
            with TabPane("Train", id="train-tab"):
                with Horizontal(id="train-split"):
                    with Vertical(id="train-left"):
                        yield CorpusPane(self._corpus, source=self._source, id="corpus")
                        yield SettingsForm(vocab_size=self._vocab_size, id="settings")
                        yield ProgressPanel(id="progress")
                    with Vertical(id="train-right"):
                        yield MergeTable(id="merges")
                        yield SegmentedView(id="segmented")
                        yield DerivationView(id="derivation")
            # Inspect / Compare are mounted when first opened: they load reference tokenizers,
            # which a user who only trains should not pay for at start-up.
            with TabPane("Inspect", id="inspect-tab"):
                yield Static(Text("opening the inspector…", style="dim"), classes="lazy-placeholder")
            with TabPane("Compare", id="compare-tab"):
                yield Static(Text("opening the comparison…", style="dim"), classes="lazy-placeholder")
        yield Footer()

    def on_mount(self) -> None:
        # The training thread runs pure Python and shares the GIL with this loop; a shorter switch
        # interval hands the GIL back to the UI sooner, so frames keep coming while it trains.
        sys.setswitchinterval(SWITCH_INTERVAL)
        self.query_one(ProgressPanel).show_idle()
        self.query_one(SegmentedView).show_empty("no merges yet: press ctrl+t to train on this corpus")
        self.query_one(DerivationView).show_none()
        self._apply_width(self.size.width)

    async def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        pane_id = event.pane.id
        if pane_id == "inspect-tab" and not self.query(InspectorPane):
            await self._mount_lazy(event.pane, InspectorPane(id="inspector"))
        elif pane_id == "compare-tab" and not self.query(ComparePane):
            await self._mount_lazy(event.pane, ComparePane(id="compare"))
        # Keys go where the eye goes: the text to type into on Inspect/Compare, the merge list
        # (stepping keys) on Train. Without this, focus stays on a widget of the hidden tab.
        target = TAB_FOCUS.get(pane_id or "")
        if target is not None and self.query(target):
            widget = self.query_one(target)
            if isinstance(widget, TextArea) and widget.cursor_location == (0, 0):
                widget.move_cursor(widget.document.end)  # typing continues the text, not prepends to it
            widget.focus()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Notifications carry user text (file names, trainer notes, error messages), so they are
        never markup unless a caller asks: a file named ``[red]x`` must read as its name."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def action_show_tab(self, tab_id: str) -> None:
        """Switch tabs from the keyboard; setting ``active`` posts the same TabActivated as a click,
        so the Inspect / Compare panes mount lazily exactly as they do on first click."""
        # Drop focus first: TabbedContent switches back to whichever tab holds the focused widget.
        self.screen.set_focus(None)
        self.query_one("#tabs", TabbedContent).active = tab_id

    async def _mount_lazy(self, tab: TabPane, pane: Widget) -> None:
        await tab.query(".lazy-placeholder").remove()
        await tab.mount(pane)
        pane.post_message(StepChanged(self.tokenizer_at_step, self.current_step))

    def on_resize(self, event) -> None:  # noqa: ANN001 - textual.events.Resize
        self._apply_width(event.size.width)

    def _apply_width(self, width: int) -> None:
        self.query_one("#train-split").set_class(width < NARROW_WIDTH, "narrow")

    # -- training --------------------------------------------------------------------------------
    def action_train(self) -> None:
        """Start (or restart) training with the form's settings; a running run is superseded."""
        form = self.query_one(SettingsForm)
        text = self.query_one(CorpusPane).text
        if not text.strip():
            self.notify("The corpus is empty: type or paste some text, or open a file (ctrl+o).", severity="error")
            return
        request = form.request_for(text)
        if request is None:
            self.notify("Fix the settings marked in red first.", severity="error")
            return
        if self.stop_after is not None or self.throttle:
            request = TrainRequest(**{**request.__dict__, "stop_after": self.stop_after, "throttle": self.throttle})
        self._begin_run(request.byte_level, text)
        self._trained = request
        self.query_one(ProgressPanel).show_counting()
        self._train_worker(request, self.run_id)

    def _begin_run(self, byte_level: bool, text: str) -> None:
        self.action_pause()
        self.run_id += 1
        self.training = True
        self.stepper = None
        self.tokenizer = None
        self._at_step_cache = None
        self._view_text = text
        self._view_byte_level = byte_level
        self._pending_rows = []
        self.query_one(MergeTable).reset(byte_level=byte_level)
        self.query_one(SegmentedView).show_empty("counting words…")
        self.query_one(DerivationView).show_none()
        self.current_step = 0

    @work(thread=True, exclusive=True, exit_on_error=False, group="train")
    def _train_worker(self, request: TrainRequest, run_id: int) -> None:
        worker = get_current_worker()
        with collector_paused():
            run_training(request, run_id, self.post_message, lambda: worker.is_cancelled, clock=self.clock)

    @work(thread=True, exclusive=True, exit_on_error=False, group="train")
    def _replay_worker(self, tokenizer: Tokenizer, text: str, run_id: int) -> None:
        worker = get_current_worker()
        with collector_paused():
            run_replay(tokenizer, text, run_id, self.post_message, lambda: worker.is_cancelled, clock=self.clock)

    def action_cancel(self) -> None:
        """Stop the running training; merges already received stay explorable."""
        if not self.training:
            return
        self.workers.cancel_group(self, "train")
        self.run_id += 1  # batches already queued belong to a dead run now
        self.training = False
        self._flush_rows()
        done = self.stepper.available if self.stepper else 0
        self.query_one(ProgressPanel).show_cancelled(done)
        self._show_step()

    def _current(self, run_id: int) -> bool:
        return run_id == self.run_id

    def on_training_started(self, message: TrainingStarted) -> None:
        if not self._current(message.run_id):
            return
        self.stepper = message.stepper
        self._target = message.target
        # The stepper holds one tuple per distinct word (hundreds of thousands on a big corpus);
        # freezing moves them out of the collector's scans, so a full GC cannot stall a step.
        gc.freeze()
        self.query_one(ProgressPanel).show_started(message.target)
        for note in message.notes:
            self.notify(visible_text(note), timeout=6)
        self._show_step()

    def on_training_batch(self, message: TrainingBatch) -> None:
        if not self._current(message.run_id) or self.stepper is None:
            return
        self.stepper.merges.extend(message.steps)  # type: ignore[attr-defined]
        # Rows join the table at most every TABLE_FLUSH seconds: adding rows re-lays-out the
        # screen, and while the worker holds half the GIL every layout costs twice as long.
        self._pending_rows.extend(message.steps)
        if self._flush_timer is None:
            self._flush_timer = self.set_timer(TABLE_FLUSH, self._flush_rows)
        self.query_one(ProgressPanel).show_progress(message.done, message.target, message.rate)
        if self.stepper.step == 0 and self.stepper.available == len(message.steps):
            self._show_step()  # first merges: draw the corpus at step 0 once
        else:
            self.query_one(SegmentedView).show_status(
                self.stepper, self._view_text, byte_level=self._view_byte_level, playing=self._playing is not None
            )

    def _flush_rows(self) -> None:
        self._flush_timer = None
        if self._pending_rows:
            rows, self._pending_rows = self._pending_rows, []
            self.query_one(MergeTable).add_steps(rows)
            if self.stepper is not None:
                self.query_one(MergeTable).select_step(self.stepper.step)

    def on_training_finished(self, message: TrainingFinished) -> None:
        if not self._current(message.run_id):
            return
        self._flush_rows()
        self.training = False
        self.tokenizer = message.tokenizer
        self._at_step_cache = None
        panel = self.query_one(ProgressPanel)
        if self._trained is None:
            panel.show_loaded(self.sub_title or "tokenizer", message.done)
        else:
            panel.show_finished(message.done, self._target, message.seconds)
        self._announce_step()

    def on_training_failed(self, message: TrainingFailed) -> None:
        if not self._current(message.run_id):
            return
        self.training = False
        self.query_one(ProgressPanel).show_failed(message.message)
        if "vocab" in message.message:
            self.query_one(SettingsForm).show_error("vocab", message.message)
        self.notify(visible_text(message.message), severity="error", timeout=8)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # run_training catches everything; this only fires for a bug in the worker wrapper itself.
        if event.state == WorkerState.ERROR and event.worker.group == "train":
            self.training = False
            self.query_one(ProgressPanel).show_failed(f"training stopped: {event.worker.error}")

    # -- retrain offer ---------------------------------------------------------------------------
    def on_corpus_pane_edited(self, message: CorpusPane.Edited) -> None:
        self._check_stale()

    def on_settings_form_changed(self, message: SettingsForm.Changed) -> None:
        form = self.query_one(SettingsForm)
        pre = form.pre_tokenizer()
        if pre is not None:
            self.query_one(CorpusPane).set_pre_tokenizer(pre)
        self._check_stale()

    def _check_stale(self) -> None:
        if self._trained is None:
            return
        form = self.query_one(SettingsForm)
        text = self.query_one(CorpusPane).text
        pre = form.pre_tokenizer()
        same = text == self._trained.text and pre == self._trained.pre_tokenizer
        if same:
            current = form.request_for(text)
            same = current is not None and current == TrainRequest(
                **{**self._trained.__dict__, "stop_after": None, "throttle": 0.0}
            )
        self.query_one(ProgressPanel).offer_retrain(not same)

    # -- stepping --------------------------------------------------------------------------------
    def _can_step(self) -> bool:
        if self.stepper is None or not self.stepper.available:
            self.notify("No merges yet: train first (ctrl+t) or load a tokenizer (ctrl+l).", timeout=3)
            return False
        return True

    def action_next(self) -> None:
        if self._can_step() and self.stepper is not None and self.stepper.step < self.stepper.available:
            self.stepper.forward()
            self._show_step()

    def action_prev(self) -> None:
        if self._can_step() and self.stepper is not None and self.stepper.step > 0:
            self.stepper.backward()
            self._show_step()

    def action_first(self) -> None:
        self.seek(0)

    def action_last(self) -> None:
        if self.stepper is not None:
            self.seek(self.stepper.available)

    def seek(self, step: int) -> None:
        """Move the corpus view to ``step`` merges applied (clamped)."""
        if self._can_step() and self.stepper is not None:
            self.stepper.seek(step)
            self._show_step()

    def action_jump(self) -> None:
        if self._can_step() and self.stepper is not None:
            self.push_screen(JumpScreen(self.stepper.available), lambda k: None if k is None else self.seek(k))

    def on_merge_table_selected(self, message: MergeTable.Selected) -> None:
        self.seek(message.step)

    def action_play(self) -> None:
        if self._playing is not None:
            self.action_pause()
        elif self._can_step():
            self._playing = self.set_interval(1 / SPEEDS[self._speed], self._play_tick)
            self.notify(f"playing at {SPEEDS[self._speed]} merges/s (+/- to change, space to pause)", timeout=2)
            self._show_step()

    def action_pause(self) -> None:
        if self._playing is not None:
            self._playing.stop()
            self._playing = None
            self._show_step()

    def _play_tick(self) -> None:
        stepper = self.stepper
        if stepper is None:
            self.action_pause()
        elif stepper.step < stepper.available:
            stepper.forward()
            self._show_step()
        elif not self.training:
            self.action_pause()

    def action_faster(self) -> None:
        self._set_speed(self._speed + 1)

    def action_slower(self) -> None:
        self._set_speed(self._speed - 1)

    def _set_speed(self, index: int) -> None:
        self._speed = max(0, min(index, len(SPEEDS) - 1))
        if self._playing is not None:
            self._playing.stop()
            self._playing = self.set_interval(1 / SPEEDS[self._speed], self._play_tick)
        self.notify(f"play speed: {SPEEDS[self._speed]} merges/s", timeout=2)

    def _show_step(self) -> None:
        stepper = self.stepper
        if stepper is None:
            return
        bl = self._view_byte_level
        self.query_one(SegmentedView).show(stepper, self._view_text, byte_level=bl, playing=self._playing is not None)
        self.query_one(DerivationView).show_step(stepper, byte_level=bl)
        self.query_one(MergeTable).select_step(stepper.step)
        if self.current_step != stepper.step:
            self.current_step = stepper.step
            self._announce_step()

    # -- the contract with the Inspect / Compare panes -------------------------------------------
    def tokenizer_at_step(self) -> Tokenizer | None:
        """The tokenizer with the first ``current_step`` merges (None before any tokenizer exists)."""
        if self.tokenizer is None:
            return None
        step = self.current_step
        if self._at_step_cache is None or self._at_step_cache[0] != step:
            prefix = getattr(self.tokenizer, "with_merge_prefix", None)
            self._at_step_cache = (step, prefix(step) if prefix is not None else self.tokenizer)
        return self._at_step_cache[1]

    def _announce_step(self) -> None:
        if self._settle is not None:
            self._settle.stop()
        self._settle = self.set_timer(STEP_SETTLE, self._post_step_changed)

    def _post_step_changed(self) -> None:
        for pane in (*self.query(InspectorPane), *self.query(ComparePane)):
            pane.post_message(StepChanged(self.tokenizer_at_step, self.current_step))

    # -- buttons, help ---------------------------------------------------------------------------
    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "train-button":
            self.action_train()
        elif event.button.id == "cancel-button":
            self.action_cancel()

    def action_help(self) -> None:
        rows = [
            (
                " / ".join(KEY_NAMES.get(k, k) for k in b.key.split(",")),
                ACTION_HELP.get(b.action, b.description or b.action),
            )
            for b in self.BINDINGS
            if isinstance(b, Binding)
        ]
        rows += [("ctrl+p", "command palette: every action by name"), ("ctrl+q", "quit")]
        self.push_screen(HelpScreen(rows))
