"""The explorer app: composes the tabs and routes keys, tabs and files between them.

Attributes go down (the app sets ``state`` on the visible Inspect or Compare pane), messages come
up (the Train pane posts :class:`~tui.train.pane.TrainPane.StateChanged` and ``RunFinished``). Each
tab's pane owns its feature -- the Train pane the runs, the stepper and the step -- and tokenizer
logic lives in ``bpe_engine``; this module only decides *who* is told *what*. Files are
:mod:`tui.files`.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Final

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Header, Static, TabbedContent, TabPane, TextArea

from bpe_engine.core.block_text import Text as CorpusText
from bpe_engine.training.runner import run_training

from .commands import ExplorerCommands
from .files import Files
from .gc_pause import freeze_what_lives
from .help_screen import APP_EXTRA_KEYS, HelpScreen, binding_rows, widget_sections
from .lazy_tabs import LAZY_PANES, lazy_pane, warm_up_lazy_panes
from .screens import ExplorerScreen, TypeAhead
from .state_pane import StatePane
from .textual_compat import SelectOverlay
from .train.corpus_pane import CorpusPane
from .train.pane import Runner, TrainPane
from .widgets.keys_footer import KeysFooter

NARROW_WIDTH, NARROW_HEIGHT = 110, 30
QUIET_ANIMATIONS: Final = "none"
"""Textual's animation level unless the user sets ``TEXTUAL_ANIMATIONS``: the only animation is the
tab underline's 0.3 s slide, ~19 more screen updates after each tab key."""
SWITCH_INTERVAL = 0.001  # seconds (Python's default is 0.005): the UI gets the GIL back sooner
_TABS = Binding.Group("Tabs")
TAB_FOCUS: dict[str, str] = {"train-tab": "#steps", "inspect-tab": "#inspect-input", "compare-tab": "#compare-text"}
"""Which widget takes the keyboard when a tab is shown."""


class ExplorerApp(App[None]):
    """bpe-explorer: train a tokenizer on a corpus in the background and step through every decision."""

    CSS_PATH = ["app.tcss", "train/train.tcss", "inspect/inspect.tcss", "compare/compare.tcss"]
    TITLE = "bpe-explorer"
    AUTO_FOCUS = None  # on_mount focuses the step list once (an AUTO_FOCUS re-applied on resets jumped tabs)
    COMMANDS = App.COMMANDS | {ExplorerCommands}
    BINDINGS = [
        Binding("ctrl+t", "train", "Train", priority=True),
        Binding("escape", "cancel", "Cancel", priority=True),
        Binding("ctrl+o", "open_corpus", "Open", priority=True),
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("ctrl+l", "load_tokenizer", "Load tok.", show=False, priority=True),
        Binding("f1,question_mark", "help", "Help"),
        # One footer entry for the three tab keys ("f2 f3 f4 Tabs"): the footer is full at 120 columns.
        Binding("f2", "show_tab('train-tab')", "Train tab", group=_TABS, priority=True),
        Binding("f3", "show_tab('inspect-tab')", "Inspect tab", group=_TABS, priority=True),
        Binding("f4", "show_tab('compare-tab')", "Compare tab", group=_TABS, priority=True),
    ]

    def __init__(
        self, corpus: CorpusText = "", *, source: str = "sample corpus", vocab_size: int = 1000,
        runner: Runner | None = None, clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``runner`` runs a training request (the engine's runner by default; a test passes a
        slower or a thread-only one); ``clock`` times runs (a snapshot test fixes it)."""
        super().__init__()
        if "TEXTUAL_ANIMATIONS" not in os.environ:
            self.animation_level = QUIET_ANIMATIONS
        self.files = Files(self)
        self.corpus = corpus  # the text the app was opened on (the Train pane's corpus pane edits its own copy)
        self._pane_args = (corpus, source, vocab_size, runner or partial(_run, clock=clock), clock)
        self._warmed_up = False

    def compose(self) -> ComposeResult:
        corpus, source, vocab_size, runner, clock = self._pane_args
        yield Header(show_clock=False, icon="≡")
        with TabbedContent(id="tabs"):
            with TabPane("Train", id="train-tab"):
                yield TrainPane(corpus, source=source, vocab_size=vocab_size, runner=runner, clock=clock, id="train-split")
            # Inspect / Compare are mounted when first opened: they load reference tokenizers.
            with TabPane("Inspect", id="inspect-tab"):
                yield Static(Text("opening the inspector…", style="dim"), classes="lazy-placeholder")
            with TabPane("Compare", id="compare-tab"):
                yield Static(Text("opening the comparison…", style="dim"), classes="lazy-placeholder")
        yield KeysFooter()

    @property
    def train_pane(self) -> TrainPane:
        return self.query_one(TrainPane)

    def get_default_screen(self) -> ExplorerScreen:
        return ExplorerScreen(id="_default")  # focus moves (each tab switch) repaint no full screen

    def on_mount(self) -> None:
        sys.setswitchinterval(SWITCH_INTERVAL)
        self._apply_size(self.size.width, self.size.height)
        self.query_one("#steps").focus()
        self.call_after_refresh(freeze_what_lives)  # the modules, styles and widgets of the app stay

    # -- tabs ------------------------------------------------------------------------------------
    async def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """A tab was shown: mount its pane on first use, then give it the state and the keyboard."""
        pane_id = event.pane.id or ""
        screen = self.screen if isinstance(self.screen, ExplorerScreen) else None
        if self._not_mounted_yet(pane_id):
            if screen is not None:
                screen.hold_keys()  # typed while it mounts: they go into its text box
            try:
                await event.pane.query(".lazy-placeholder").remove()
                await event.pane.mount(lazy_pane(pane_id)(id=LAZY_PANES[pane_id], state=self.train_pane.state))
                freeze_what_lives()  # the pane and the tokenizers it loaded stay
                self._enter_tab(pane_id)
            finally:
                if screen is not None:
                    screen.release_keys(self.screen.focused)
            return
        self._enter_tab(pane_id)

    def _not_mounted_yet(self, pane_id: str) -> bool:
        return pane_id in LAZY_PANES and self._find(f"#{LAZY_PANES[pane_id]}") is None

    def _enter_tab(self, pane_id: str) -> None:
        """Give the shown tab the current state and the keyboard (once: a tab key's own action
        already did it before its TabActivated came)."""
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

    def action_show_tab(self, tab_id: str) -> None:
        """Switch tabs from the keyboard in one frame: shown, given its state and focus, laid out."""
        screen = self.screen
        if isinstance(screen, ExplorerScreen) and self._not_mounted_yet(tab_id):
            screen.hold_keys()  # the keys right after this one are for the pane about to mount
        screen.set_focus(None)  # TabbedContent switches back to whichever tab holds the focus
        self.query_one("#tabs", TabbedContent).active = tab_id
        self._enter_tab(tab_id)
        if isinstance(screen, ExplorerScreen):
            screen.lay_out_next_frame()

    def _find(self, selector: str) -> Widget | None:
        """The widget ``selector`` names, or None (a query by id is a dictionary look-up)."""
        try:
            return self.query_one(selector)
        except NoMatches:
            return None

    def _push_state(self) -> None:
        """Give the visible pane the current state; a hidden pane gets it when shown."""
        tabs = self._find("#tabs")
        if not isinstance(tabs, TabbedContent):  # shutting down
            return
        pane = self._find(f"#{LAZY_PANES[tabs.active]}") if tabs.active in LAZY_PANES else None
        if isinstance(pane, StatePane):
            pane.state = self.train_pane.state

    # -- what the Train pane says ------------------------------------------------------------------
    def on_train_pane_state_changed(self, message: TrainPane.StateChanged) -> None:
        self._push_state()

    def on_train_pane_run_finished(self, message: TrainPane.RunFinished) -> None:
        self.files.run_finished(message.tokenizer)

    def on_corpus_pane_facts(self, message: CorpusPane.Facts) -> None:
        freeze_what_lives()  # the cut's words are kept for ctrl+t
        if not self._warmed_up:
            self._warmed_up = True
            self.run_worker(warm_up_lazy_panes, thread=True, group="warm-up", exit_on_error=False)

    def on_inspector_pane_selection_wanted(self, message: object) -> None:
        selected = self.query_one("#corpus-text", TextArea).selected_text
        if not selected:
            self.notify("Select some text in the corpus (Train tab) first.", severity="warning")
            return
        from .inspect import InspectorPane  # the message came from it: imported already

        self.query_one("#inspector", InspectorPane).inspect(selected)

    # -- keys ------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """esc cancels a run from anywhere -- unless a dialog or an open list takes it."""
        if action == "cancel":
            modal = isinstance(self.screen, ModalScreen) or isinstance(self.focused, SelectOverlay)
            return self.train_pane.training and not modal
        return True

    def action_train(self) -> None:
        self.train_pane.train()

    def action_cancel(self) -> None:
        self.files.run_cancelled()
        self.train_pane.cancel()

    def action_open_corpus(self) -> None:
        self.files.open_corpus()

    def action_load_tokenizer(self) -> None:
        self.files.load_tokenizer()

    def action_save(self) -> None:
        self.files.save()

    def action_help(self) -> None:
        """The help: the app's keys, then those of the tab on screen."""
        tabs = self.query_one("#tabs", TabbedContent)
        label = tabs.get_tab(tabs.active).label.plain
        sections = [("Everywhere", binding_rows(self.BINDINGS) + APP_EXTRA_KEYS)]
        self.push_screen(HelpScreen([*sections, *widget_sections(label, tabs.get_pane(tabs.active))]))

    def on_key(self, event: events.Key) -> None:
        """A printable key that reaches the app while a dialog's input has focus was typed for the
        dialog before it opened (``a cl100k`` as one burst): it goes into the dialog's field."""
        screen = self.screen
        if isinstance(screen, TypeAhead) and event.is_printable:
            screen.take_typed_ahead(event)

    def on_resize(self, event: events.Resize) -> None:
        self._apply_size(event.size.width, event.size.height)

    def _apply_size(self, width: int, height: int) -> None:
        """Small terminals get one Train view at a time (f5 cycles) and stacked bars elsewhere."""
        narrow = width < NARROW_WIDTH or height < NARROW_HEIGHT
        self.train_pane.set_narrow(narrow)
        self.screen_stack[0].set_class(narrow, "narrow")
        self.refresh_bindings()

    def action_help_quit(self) -> None:
        """ctrl+c says which key quits, in plain words (Textual's own note is markup, and this app
        shows notifications as plain text since they carry user text)."""
        quits = (key for key, active in self.active_bindings.items() if active.binding.action in ("quit", "app.quit"))
        self.notify(f"Press {next(quits, 'ctrl+q')} to quit the app", title="Do you want to quit?")

    def notify(
        self, message: str, *, title: str = "", severity: SeverityLevel = "information", timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Notifications carry user text (file names, notes, errors): never markup unless asked."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)


def _run(request, cancelled, *, clock):  # noqa: ANN001, ANN202 - the default Runner
    return run_training(request, cancelled=cancelled, clock=clock)


__all__ = ["ExplorerApp"]
