"""The explorer app: composes the panes and routes messages and keys between them.

Attributes go down (the app sets state on panes), messages come up (widgets and the training
worker post). Tokenizer logic lives in ``bpe_engine``; training runs through
:mod:`bpe_engine.training.runner`; this module only decides *who* is told *what*. The Train
tab's actions are mixins kept beside their widgets (:mod:`tui.train.training_actions`,
:mod:`tui.train.stepping_actions`); files are in :mod:`tui.file_actions`.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.notifications import SeverityLevel
from textual.reactive import var
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Header, Input, Static, TabbedContent, TabPane, TextArea
from textual.widgets._select import SelectOverlay

from bpe_engine.explore.stepper import Stepper
from bpe_engine.training.runner import Backend, TrainingRequest
from bpe_engine.types import Tokenizer

from .commands import ExplorerCommands
from .file_actions import FileActions
from .gc_pause import freeze_what_lives
from .help_screen import APP_EXTRA_KEYS, HelpScreen, binding_rows, widget_sections
from .screens import ExplorerScreen, TypeAhead
from .state import ExplorerState
from .train.corpus_pane import CorpusCut, CorpusPane
from .train.derivation_view import DerivationView
from .train.merge_log import MergeLog
from .train.merge_table import MergeTable
from .train.progress_panel import ProgressPanel
from .train.segmented_view import SegmentedView
from .train.settings_form import SettingsForm
from .train.stepping_actions import SteppingActions
from .train.training_actions import RunView, TrainingActions
from .widgets.keys_footer import KeysFooter

if TYPE_CHECKING:
    from .inspect import InspectorPane

NARROW_WIDTH = 110
NARROW_HEIGHT = 30
NARROW_VIEWS = ("show-setup", "show-steps", "show-why")
"""The Train tab's views on a small terminal, in the order f5 cycles them."""
STEP_SETTLE = 0.15
QUIET_ANIMATIONS = "none"
"""Textual's animation level unless the user sets ``TEXTUAL_ANIMATIONS``: the only animation the app
would show is the tab underline's 0.3 s slide, ~19 more screen updates after each tab key, which the
UI thread draws while the next key may already be waiting. (In a pty the median tab switch was 59 ms
against 72 ms with the slide in one A/B of 32 switches a side, 59 against 61 ms in another of 72:
within this machine's noise.)"""
SWITCH_INTERVAL = 0.001  # seconds (Python's default is 0.005)
_TABS = Binding.Group("Tabs")
LAZY_PANES = {"inspect-tab": "inspector", "compare-tab": "compare"}
"""Tabs whose pane is imported and mounted when first shown (tab id -> pane id)."""
_IMPORTING_PANES = threading.Lock()


def _lazy_pane(tab_id: str) -> type[Widget]:
    """The pane class of a lazy tab, imported on first use: ~85 ms of imports (the panes, the
    catalogue, the comparison engine) a user who only trains should not wait for at start-up.
    One thread imports them at a time: the warm-up may be at it when the first f3 comes."""
    with _IMPORTING_PANES:
        if tab_id == "inspect-tab":
            from .inspect import InspectorPane

            return InspectorPane
        from .compare import ComparePane

        return ComparePane


def warm_up_lazy_panes() -> None:
    """Off the UI thread, once the app is up: import the lazy panes and load Inspect's first
    tokenizer, which the first f3 waited for on the UI thread (~85 ms of imports, ~110 ms for
    gpt2, of ~700 ms before Inspect showed its tokens). Nothing here touches a widget; the
    tokenizer only lands in the sources' cache."""
    for tab_id in LAZY_PANES:
        _lazy_pane(tab_id)
    from .compare import sources
    from .inspect import DEFAULT_SPEC

    sources.get(DEFAULT_SPEC, lambda: None)


TAB_FOCUS: dict[str, str] = {"train-tab": "#merges", "inspect-tab": "#inspect-input", "compare-tab": "#compare-text"}
"""Which widget takes the keyboard when a tab is shown."""

STEP_KEYS = frozenset({"next", "prev", "play", "jump", "first", "last", "faster", "slower"})
"""Actions of the stepping keys: they work anywhere on the Train tab except inside a text input."""


class ExplorerApp(TrainingActions, SteppingActions, FileActions, App[None]):
    """bpe-explorer: train BPE on a corpus in the background and step through every merge."""

    CSS_PATH = ["app.tcss", "train/train.tcss", "inspect/inspect.tcss", "compare/compare.tcss"]
    TITLE = "bpe-explorer"
    # No AUTO_FOCUS: Textual re-applies it whenever focus is reset (the small layout settling), and
    # focusing the merge list of a hidden Train tab made TabbedContent jump back to Train, undoing
    # the user's first f3. on_mount focuses the merge list once instead (stepping keys work at once).
    AUTO_FOCUS = None
    COMMANDS = App.COMMANDS | {ExplorerCommands}
    BINDINGS = [
        Binding("ctrl+t", "train", "Train", priority=True),
        Binding("f5", "next_view", "Pane", priority=True),  # shown only on a small terminal: first, so it fits
        Binding("escape", "cancel", "Cancel", priority=True),
        Binding("n", "next", "Next", priority=True),
        Binding("b", "prev", "Back", priority=True),
        Binding("space", "play", "Play", priority=True),
        Binding("j", "jump", "Jump", priority=True),
        Binding("g", "first", "First", show=False, priority=True),
        Binding("G", "last", "Last", show=False, priority=True),
        Binding("plus,equals_sign", "faster", "Faster", show=False, priority=True),
        Binding("minus", "slower", "Slower", show=False, priority=True),
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
        if "TEXTUAL_ANIMATIONS" not in os.environ:
            self.animation_level = QUIET_ANIMATIONS
        self._corpus = corpus
        self._source = source
        self._vocab_size = vocab_size
        self.clock: Callable[[], float] = time.monotonic  # tests stub it for deterministic rates
        self.stop_after: int | None = None  # test hook: leave the run mid-training after N merges
        self.throttle = 0.0  # test hook: seconds the trainer sleeps per merge (slow runs on small corpora)
        self.backend: Backend = "auto"  # tests force "thread" or "child"
        self.run_id = 0
        self._training = False
        self.stepper: Stepper | None = None
        self.tokenizer: Tokenizer | None = None
        self.merge_log = MergeLog()
        self.view: RunView | None = None  # how the shown merges are drawn (text, alphabet)
        self._starting: RunView | None = None  # a run that has not started yet
        self._trained: TrainingRequest | None = None
        self._corpus_cut: CorpusCut | None = None  # the corpus pane's last cut, reused by ctrl+t
        self._notes_shown: set[str] = set()
        self._warmed_up = False
        self._playing: Timer | None = None
        self._speed = 3  # index into SPEEDS
        self._settle: Timer | None = None
        self._target = 0

    @property
    def training(self) -> bool:
        """Whether a run is going (from ctrl+t until it finishes, fails or is cancelled)."""
        return self._training

    @training.setter
    def training(self, value: bool) -> None:
        if value != self._training:
            self._training = value
            # The footer's "esc Cancel" follows check_action, which Textual asks again only when
            # told: without this it changed with the next focus move, whenever that came (the
            # snapshot tests caught it under load, showing or hiding it at random).
            self.refresh_bindings()

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
        yield KeysFooter()

    def get_default_screen(self) -> ExplorerScreen:
        return ExplorerScreen(id="_default")  # focus moves (each tab switch) repaint no full screen

    def on_mount(self) -> None:
        # The training thread runs pure Python and shares the GIL with this loop; a shorter switch
        # interval hands the GIL back to the UI sooner, so frames keep coming while it trains.
        sys.setswitchinterval(SWITCH_INTERVAL)
        self.query_one(ProgressPanel).show_idle()
        self.query_one(SegmentedView).show_empty("no merges yet: press ctrl+t to train on this corpus")
        self.query_one(DerivationView).show_none()
        self._apply_size(self.size.width, self.size.height)
        self.query_one(MergeTable).focus()
        self.call_after_refresh(freeze_what_lives)  # the modules, styles and widgets of the app stay

    async def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """A tab was shown (a click, or the keys after :meth:`action_show_tab`): mount its pane on
        first use, then give it the state and the keyboard (nothing left to do after a key)."""
        pane_id = event.pane.id or ""
        screen = self.screen if isinstance(self.screen, ExplorerScreen) else None
        if self._not_mounted_yet(pane_id):
            if screen is not None:
                screen.hold_keys()  # typed while it mounts: they go into its text box
            try:
                await self._mount_lazy(event.pane, _lazy_pane(pane_id)(id=LAZY_PANES[pane_id], state=self.explorer_state()))
                self._enter_tab(pane_id)
            finally:
                if screen is not None:
                    screen.release_keys(self.screen.focused)
            return
        self._enter_tab(pane_id)

    def _not_mounted_yet(self, pane_id: str) -> bool:
        """Whether ``pane_id`` is a lazy tab whose pane is not mounted yet (its first showing)."""
        return pane_id in LAZY_PANES and self._find(f"#{LAZY_PANES[pane_id]}") is None

    def _enter_tab(self, pane_id: str) -> None:
        """Give the shown tab the current state and the keyboard: the text to type into on
        Inspect/Compare, the merge list (stepping keys) on Train. Without the focus move, keys
        would go to a widget of the hidden tab. Once the keyboard is there the tab was entered
        (by the key's own action, before its TabActivated): nothing is done twice."""
        target = TAB_FOCUS.get(pane_id)
        widget = self._find(target) if target is not None else None
        if widget is not None and self.screen.focused is widget:
            return
        self._push_state()
        if widget is None:
            return
        if isinstance(widget, TextArea) and widget.cursor_location == (0, 0):
            widget.move_cursor(widget.document.end)  # typing continues the text, not prepends to it
        self.screen.set_focus(widget)

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
        """Switch tabs from the keyboard, in one frame: the new tab is shown, given its state and
        focus, and laid out on the very next screen update.

        Left to Textual, a switch took three: the tab row was painted first, the new tab was laid out
        only after its panes' Layout messages had climbed to the screen, and the focus move from
        TabActivated came after that (~30 ms of an f2 at 120x40). Setting ``active`` still posts
        TabActivated as a click does, which mounts Inspect / Compare on first use."""
        screen = self.screen
        if isinstance(screen, ExplorerScreen) and self._not_mounted_yet(tab_id):
            screen.hold_keys()  # the keys right after this one are for the pane about to mount
        # Drop focus first: TabbedContent switches back to whichever tab holds the focused widget.
        screen.set_focus(None)
        self.query_one("#tabs", TabbedContent).active = tab_id
        self._enter_tab(tab_id)
        if isinstance(screen, ExplorerScreen):
            screen.lay_out_next_frame()

    async def _mount_lazy(self, tab: TabPane, pane: Widget) -> None:
        await tab.query(".lazy-placeholder").remove()
        await tab.mount(pane)
        freeze_what_lives()  # the pane and the tokenizers it loaded stay

    def on_key(self, event: events.Key) -> None:
        """A printable key that comes up to the app while a dialog's input has focus was typed for
        the dialog before it opened: ``a cl100k`` as one burst. The key that opens the dialog is
        a binding of a pane, run once it has bubbled up here, and the keys after it had already
        gone to the widget that had focus then; they arrive here after the dialog is up (the
        input takes every printable key itself, so nothing else sends one here)."""
        screen = self.screen
        if isinstance(screen, TypeAhead) and event.is_printable:
            screen.take_typed_ahead(event)

    def on_resize(self, event) -> None:  # noqa: ANN001 - textual.events.Resize
        self._apply_size(event.size.width, event.size.height)

    def _apply_size(self, width: int, height: int) -> None:
        """Small terminals get one Train view at a time (f5 cycles), and stacked bars elsewhere."""
        narrow = width < NARROW_WIDTH or height < NARROW_HEIGHT
        split = self.query_one("#train-split")
        split.set_class(narrow, "narrow")
        if narrow and not any(split.has_class(v) for v in NARROW_VIEWS):
            split.add_class(NARROW_VIEWS[0])
        self.screen_stack[0].set_class(narrow, "narrow")
        self.refresh_bindings()

    @property
    def narrow(self) -> bool:
        return self.query_one("#train-split").has_class("narrow")

    def action_next_view(self) -> None:
        """f5 on a small terminal: the next Train view (setup -> steps -> why)."""
        split = self.query_one("#train-split")
        current = next((i for i, v in enumerate(NARROW_VIEWS) if split.has_class(v)), 0)
        self._show_view(NARROW_VIEWS[(current + 1) % len(NARROW_VIEWS)])

    def _show_view(self, view: str) -> None:
        split = self.query_one("#train-split")
        split.remove_class(*NARROW_VIEWS)
        split.add_class(view)
        if view != "show-setup" and not isinstance(self.focused, MergeTable):
            self.query_one(MergeTable).focus()  # the keyboard follows the eye (stepping keys)

    def _find(self, selector: str) -> Widget | None:
        """The widget ``selector`` names, or None. Not ``bool(self.query(...))``: that matches the
        selector against every node (~4 ms at 130 widgets), and check_action runs for each binding
        on every key and footer refresh; ``query_one`` by id is a dictionary look-up."""
        try:
            return self.query_one(selector)
        except NoMatches:
            return None

    # -- keys ------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Stepping keys act anywhere on the Train tab -- but a key typed into a text field is
        text, and a prompt or the help screen keeps its keys (the key then goes on to them)."""
        if action == "cancel":  # esc cancels a run from anywhere; otherwise it is the widgets' key
            return self.training and not isinstance(self.screen, ModalScreen) and not isinstance(self.focused, SelectOverlay)
        if action == "next_view":  # only a small terminal has views to cycle
            return self.is_mounted and self._find("#train-split") is not None and self.narrow
        if action not in STEP_KEYS:
            return True
        if isinstance(self.screen, ModalScreen) or not self.is_mounted:
            return False
        tabs = self._find("#tabs")
        if not isinstance(tabs, TabbedContent) or tabs.active != "train-tab":
            return False
        focused = self.focused
        if isinstance(focused, Input) or (isinstance(focused, TextArea) and not focused.read_only):
            return False
        return True

    # -- retrain offer ---------------------------------------------------------------------------
    def on_corpus_pane_edited(self, message: CorpusPane.Edited) -> None:
        self._corpus_cut = None
        self._check_stale()

    def on_corpus_pane_facts(self, message: CorpusPane.Facts) -> None:
        self._corpus_cut = message.cut
        freeze_what_lives()  # the cut's words are kept for ctrl+t
        self.query_one(SettingsForm).set_alphabet(message.stats.distinct_characters)
        if not self._warmed_up:
            self._warmed_up = True
            self.run_worker(warm_up_lazy_panes, thread=True, group="warm-up", exit_on_error=False)

    def on_settings_form_changed(self, message: SettingsForm.Changed) -> None:
        form = self.query_one(SettingsForm)
        pre = form.pre_tokenizer()
        if pre is not None:
            self.query_one(CorpusPane).set_pre_tokenizer(pre)
        self._check_stale()

    def _check_stale(self) -> None:
        if self._trained is None:
            return
        text = self.query_one(CorpusPane).text
        current = self.query_one(SettingsForm).request_for(text, quiet=True)
        same = current is not None and current.settings() == self._trained
        self.query_one(ProgressPanel).offer_retrain(not same)

    # -- state for the Inspect / Compare panes ---------------------------------------------------
    def explorer_state(self) -> ExplorerState:
        """The one state every pane draws from (frozen; built fresh, cheap)."""
        view = self.view
        return ExplorerState(
            corpus=view.text if view is not None else self.query_one(CorpusPane).text,
            corpus_label=self.query_one(CorpusPane).source,
            merges=self.merge_log,
            initial_tokens=self.stepper.initial_token_count if self.stepper is not None else 0,
            tokenizer=self.tokenizer,
            step=self.current_step,
            training=self.training,
            source=view.label if view is not None else "",
        )

    def tokenizer_at_step(self) -> Tokenizer | None:
        """The tokenizer with the first ``current_step`` merges (None before any tokenizer exists)."""
        return self.explorer_state().tokenizer_at()

    def _announce_step(self) -> None:
        if self._settle is not None:
            self._settle.stop()
        self._settle = self.set_timer(STEP_SETTLE, self._push_state)

    def _push_state(self) -> None:
        """Give the visible pane the current state; a hidden pane gets it when shown."""
        tabs = self._find("#tabs")
        if not isinstance(tabs, TabbedContent):  # shutting down
            return
        active = tabs.active
        pane = self._find(f"#{LAZY_PANES[active]}") if active in LAZY_PANES else None
        if pane is not None:
            pane.state = self.explorer_state()  # type: ignore[attr-defined]

    def on_inspector_pane_selection_wanted(self, message: InspectorPane.SelectionWanted) -> None:
        selected = self.query_one("#corpus-text", TextArea).selected_text
        if not selected:
            self.notify("Select some text in the corpus (Train tab) first.", severity="warning")
            return
        self.query_one("#inspector", _lazy_pane("inspect-tab")).inspect(selected)

    # -- buttons, help ---------------------------------------------------------------------------
    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "train-button":
            self.action_train()
        elif event.button.id == "cancel-button":
            self.action_cancel()

    def action_help(self) -> None:
        """The help: the app's keys, then those of the tab on screen."""
        tabs = self.query_one("#tabs", TabbedContent)
        label = tabs.get_tab(tabs.active).label.plain
        sections = [("Everywhere (the stepping keys act on Train)", binding_rows(self.BINDINGS) + APP_EXTRA_KEYS)]
        self.push_screen(HelpScreen([*sections, *widget_sections(label, tabs.get_pane(tabs.active))]))
