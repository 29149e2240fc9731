"""The Compare tab: one text, any number of tokenizers, aligned on one character axis as you type.

Each edit runs the comparison once the key is handled (a burst coalesces: one run at a time, the
newest input next); the text is encoded by every row -- on the UI thread when it is small and
every tokenizer is loaded (instant feedback), in a worker thread otherwise (a
tokenizer still to load is named in the status: "loading tekken…"). Each run carries a generation
number and only the newest run may draw, so a slow stale result never overwrites a newer one.

Four views of the same result, one at a time (``v`` or a click on their tabs): **Rows** (every row
on the character axis; the pointer lights a token's span up in all rows), **Stats** (every row's
counts, graphemes beside code points, and its cost against the baseline row ★), **Text** (the
current row as plain coloured text; ids or bytes on demand) and **Curve** (the training's
compression curve). Rows come from a searchable picker (``a``); ``c`` copies the current row's ids.

The pane reads nothing from the app: the app sets :attr:`ComparePane.state` (model, merges,
step k) while the tab is visible. k follows the Train step until the user moves the slider;
the label says which ("follows Train" or "fixed"), and ``f`` follows again.
"""

from __future__ import annotations

from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, ContentSwitcher, DataTable, Select, Tab, Tabs, TextArea

from bpe_engine.choices import COMPARE_ROWS
from bpe_engine.compare.segments import SegmentCache
from bpe_engine.compare.spans import TokenPick
from bpe_engine.display import visible_text
from bpe_engine.types import SpecialMode

from ..models.flow import choose_tokenizers
from ..state import ExplorerState
from ..widgets.clipboard import copy_ids
from ..widgets.safe_text import SafeTextArea
from ..widgets.special_mode import SpecialModeSelect
from ..widgets.steady_static import SteadyStatic
from ..widgets.token_text import TokenText
from . import row_list, sources
from .aligned import AlignedRows
from .chart import CurveChart
from .info import status_text
from .k_bar import KBar
from .running import Compared, run_comparison
from .selection import Selection
from .slider import MergeSlider
from .stats_table import StatsTable
from .views import VIEWS, Views

DEFAULT_TEXT = "The tokenizer doesn't see words: 한국어 텍스트는 바이트로 쪼개진다. 👩‍👩‍👧 naïve café"
BUSY_AFTER = 0.15  # a worker run still going after this says so (a quicker one would only flash)
SYNC_LIMIT = 2000  # characters: below this (and with every tokenizer loaded) encode on the UI thread


class ComparePane(Widget):
    """Rows of tokenizers on one text; pick rows, light spans, read the statistics, slide k."""

    BINDINGS = [
        Binding("a", "add_rows", "Rows…", tooltip="add or remove rows: a searchable picker of every tokenizer"),
        Binding("v", "cycle_view(1)", "View", tooltip="next view: Rows, Stats, Text, Curve"),
        Binding("V", "cycle_view(-1)", "View back", show=False, tooltip="previous view"),
        Binding("c", "copy_ids", "Copy ids", tooltip="copy the current row's token ids"),
        Binding("B", "set_baseline", "Baseline", tooltip="make the current row the baseline ★ the costs compare against"),
        Binding("delete,x", "remove_row", "Remove row", tooltip="remove the current row"),
        Binding("shift+up,K", "move_row(-1)", "Row up", show=False, tooltip="move the current row up"),
        Binding("shift+down,J", "move_row(1)", "Row down", show=False, tooltip="move the current row down"),
        Binding(
            "escape", "escape", "Leave text / clear", show=False,
            tooltip="in the text box: leave it, so these keys act; elsewhere: let the lit token go",
        ),
        Binding("left_square_bracket", "step_k(-1)", "k−1", show=False, tooltip="k − 1: your row one merge earlier"),
        Binding("right_square_bracket", "step_k(1)", "k+1", show=False, tooltip="k + 1: your row one merge later"),
        Binding("f", "follow", "k follows Train", show=False, tooltip="k follows the Train step again"),
        Binding("t", "text_view('text')", "Text view", show=False, tooltip="the current row as text (the Text view)"),
        Binding("i", "text_view('ids')", "Ids", show=False, tooltip="the current row's ids (the Text view)"),
        Binding("b", "text_view('bytes')", "Bytes", show=False, tooltip="the current row's bytes (the Text view)"),
    ]

    class Compared(Message):
        """A comparison finished (checked against the generation before drawing)."""

        def __init__(self, result: Compared | None, generation: int, error: str = "") -> None:
            super().__init__()
            self.result = result
            self.generation = generation
            self.error = error  # why there is no result (a bug: shown, never swallowed)

    class Loading(Message):
        """The worker is about to load tokenizer ``spec`` (``i`` of ``n``)."""

        def __init__(self, generation: int, spec: str, i: int, n: int) -> None:
            super().__init__()
            self.generation, self.spec, self.i, self.n = generation, spec, i, n

    def __init__(
        self,
        *,
        id: str | None = None,  # noqa: A002
        text: str = DEFAULT_TEXT,
        rows: tuple[str, ...] = COMPARE_ROWS,
        state: ExplorerState | None = None,
    ) -> None:
        super().__init__(id=id)
        self._state = state if state is not None else ExplorerState()
        self._initial_text = text
        self.rows: list[str] = list(rows)
        self.baseline: str | None = row_list.baseline_among(rows, None)
        self.current_row = 0
        self._generation = 0
        self._drawn = 0
        self._result: Compared | None = None
        self._encoding = False  # a worker is encoding
        self._input_changed = False  # input changed while it was
        self._segments = SegmentCache()  # line encodings: typing re-encodes only the edited line
        self._selection = Selection()
        self._views = Views(self)
        self._loading = ""
        self._failure = ""  # why the last run gave no result: the rows shown are older than the text
        self._busy_timer: Timer | None = None
        self._ours_used: tuple[object, ...] | None = None  # what the last run's "ours" row showed (see _ours_key)
        self._width_used: int | None = None  # the width the last run wrapped the rows to

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield SafeTextArea(self._initial_text, id="compare-text", soft_wrap=True, tab_behavior="focus")
        with Horizontal(classes="bar"):
            yield SpecialModeSelect(id="compare-special")
            yield Button("add a row… (a)", id="compare-add", compact=True)
            yield Button("Copy ids (c)", id="compare-copy", compact=True)
        yield KBar(self._state, classes="k-bar")
        yield Tabs(*(Tab(label, id=f"tab-{wid}") for wid, label in VIEWS), id="compare-views")
        with ContentSwitcher(initial=VIEWS[0][0], id="compare-body"):
            yield AlignedRows(id="compare-aligned")
            yield StatsTable(id="compare-rows", cursor_type="row", zebra_stripes=True)
            with Vertical(id="compare-text-view"):
                yield SteadyStatic(id="compare-text-title", markup=False)
                yield TokenText(id="compare-colored")
            yield CurveChart()
        yield SteadyStatic(id="compare-info", markup=False)
        yield SteadyStatic(id="compare-status", markup=False)

    def on_mount(self) -> None:
        self.query_one(KBar).state = self._state
        self._sync_slider()
        self.schedule(immediate=True)

    # -- public ----------------------------------------------------------------------------------
    @property
    def text(self) -> str:
        return self.query_one("#compare-text", SafeTextArea).text

    @property
    def state(self) -> ExplorerState:
        return self._state

    @state.setter
    def state(self, state: ExplorerState) -> None:
        """The app's model and step: the slider follows the step (unless the user slid it)."""
        old, self._state = self._state, state
        if not self.is_mounted:
            return
        self.query_one(KBar).state = state
        if old.tokenizer is not state.tokenizer or old.step != state.step or old.merges is not state.merges:
            self._sync_slider()
            self._views.redraw_curve()

    @property
    def k(self) -> int:
        return self.query_one(KBar).k

    @property
    def result(self) -> Compared | None:
        return self._result

    @property
    def view(self) -> str:
        return self._views.current

    @property
    def lit(self) -> TokenPick | None:
        """The token whose span is lit: under the pointer, else the one picked."""
        return self._selection.lit

    def set_k(self, k: int) -> None:
        """Use the first ``k`` merges of the trained model in the "ours" row."""
        self.query_one(KBar).k = k

    def add_row(self, spec: str) -> None:
        self.set_rows([*self.rows, spec])

    def set_rows(self, specs: tuple[str, ...] | list[str]) -> None:
        """The rows to compare, in order (the baseline and current row follow their tokenizers)."""
        old, self.rows = self.rows, list(specs)
        self.baseline = row_list.baseline_among(self.rows, self.baseline)
        self.current_row = row_list.current_after(old, self.current_row, self.rows)
        self._selection.clear()
        self.schedule(immediate=True)

    def show_view(self, view: str) -> None:
        """Show ``view`` now (a key right behind this one reads the new view)."""
        self._views.show(view)

    # -- events ----------------------------------------------------------------------------------
    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if event.text_area.id == "compare-text":
            self.schedule()

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.select.id == "compare-special":
            self.schedule(immediate=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "compare-add":
            self.action_add_rows()
        elif event.button.id == "compare-copy":
            self.action_copy_ids()

    def on_tabs_tab_activated(self, event: Tabs.TabActivated) -> None:
        event.stop()
        if event.tabs.id == "compare-views" and event.tab.id is not None:
            self._views.activated(event.tab.id.removeprefix("tab-"))

    def on_merge_slider_changed(self, message: MergeSlider.Changed) -> None:
        """The user moved k (the k bar has noted it): the "ours" row and the curve follow."""
        message.stop()
        self._rerun_ours()
        self._views.redraw_curve()

    def on_resize(self) -> None:
        """The aligned rows wrap to a new width. Textual also sends a Resize each time the tab is
        shown again, at the same size: re-running every row then was ~7 % of an f2/f4 switch."""
        if self._views.row_width() != self._width_used:
            self.schedule()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.cursor_row != self.current_row and 0 <= event.cursor_row < len(self.rows):
            self._set_current(event.cursor_row)

    def on_aligned_rows_pointed(self, message: AlignedRows.Pointed) -> None:
        message.stop()
        r = self._result
        if r is None:
            return
        if message.clicked and message.row is not None:
            self._set_current(message.row)
        self._selection.point_at_char(r.comparison, message.row, message.char, clicked=message.clicked)
        self._views.light()

    def on_aligned_rows_nav(self, message: AlignedRows.Nav) -> None:
        message.stop()
        self._nav(message.drow, message.dtoken)

    def on_token_text_pointed(self, message: TokenText.Pointed) -> None:
        message.stop()
        r = self._result
        if r is None or message.view.id != "compare-colored":
            return
        self._selection.point_at_token(r.comparison, self.current_row, message.token, clicked=message.clicked)
        self._views.light()

    def on_token_text_nav(self, message: TokenText.Nav) -> None:
        message.stop()
        self._nav(message.drow, message.dtoken)

    def on_token_text_mode_changed(self, message: TokenText.ModeChanged) -> None:
        message.stop()
        self._views.draw_text()

    # -- actions ---------------------------------------------------------------------------------
    def action_add_rows(self) -> None:
        choose_tokenizers(self.app, self.rows, self.set_rows, multiple=True, title="Rows to compare")

    def action_cycle_view(self, delta: int) -> None:
        """The next view, with the keyboard (its keys -- arrows, t/i/b -- work at once)."""
        self._views.cycle(delta)

    def action_copy_ids(self) -> None:
        r = self._result
        if r is None or not 0 <= self.current_row < len(r.comparison.rows):
            self.app.notify("Nothing to copy yet.", severity="warning")
            return
        copy_ids(self.app, r.comparison.rows[self.current_row].encoding, r.labels[self.current_row])

    def action_set_baseline(self) -> None:
        if 0 <= self.current_row < len(self.rows):
            self.baseline = self.rows[self.current_row]
            if self._result is not None:
                self._draw(self._result)

    def action_remove_row(self) -> None:
        i = self.current_row
        if 0 <= i < len(self.rows):
            rows = row_list.without(self.rows, i)
            self.current_row = min(i, max(len(rows) - 1, 0))
            self.set_rows(rows)

    def action_move_row(self, delta: int) -> None:
        i, j = self.current_row, self.current_row + delta
        if 0 <= i < len(self.rows) and 0 <= j < len(self.rows):
            self.set_rows(row_list.swapped(self.rows, i, j))
            self.current_row = j

    def action_escape(self) -> None:
        """esc in the text box leaves it for the shown view, so the pane's keys (v, a, c, arrows)
        act instead of being typed; elsewhere esc lets the lit token go."""
        if self.query_one("#compare-text").has_focus:
            if not self._views.focus():  # the Curve takes no keys: the views' tabs do (←/→ switch)
                self.query_one("#compare-views", Tabs).focus()
        elif self._selection.clear():
            self._views.light()

    def action_text_view(self, mode: str) -> None:
        """t / i / b from anywhere in the pane but the text box: the Text view, in that mode (they
        were keys of that view only, and did nothing from the Rows after esc)."""
        self.show_view("compare-text-view")
        colored = self.query_one("#compare-colored", TokenText)
        colored.action_mode(mode)  # type: ignore[arg-type]
        colored.focus()

    def action_step_k(self, delta: int) -> None:
        self.set_k(self.k + delta)

    def action_follow(self) -> None:
        """k follows the Train step again."""
        self.query_one(KBar).following = True
        self._sync_slider()
        self._views.redraw_curve()

    # -- encoding --------------------------------------------------------------------------------
    def schedule(self, *, immediate: bool = False) -> None:
        """Re-run the comparison once the current event is handled (or at once). A burst of keys
        coalesces without a timer: only the newest generation starts, and while a run is going
        the newest input waits for it (single-flight), so a pause would only add latency."""
        self._generation += 1
        gen = self._generation
        if immediate:
            self._start(gen)
        else:
            self.call_later(self._start, gen)

    def _start(self, generation: int) -> None:
        if generation != self._generation:
            return
        if self._encoding:
            self._input_changed = True  # one run at a time; the newest input runs as soon as it ends
            return
        text, specs, mode, k = self.text, tuple(self.rows), self._mode(), self.k
        self._ours_used = self._ours_key(k)
        width = self._width_used = self._views.row_width()
        state = self._state
        ours = lambda: state.ours(k)  # noqa: E731 - a frozen state, safe in a worker
        if len(text) <= SYNC_LIMIT and all(sources.is_loaded(s) for s in specs):
            self._accept(run_comparison(generation, text, specs, mode, ours, k, width, self._segments))
        else:
            self._encoding = True
            self._loading = ""
            if self._busy_timer is not None:
                self._busy_timer.stop()
            self._busy_timer = self.set_timer(BUSY_AFTER, self._show_status)
            self._compare_worker(generation, text, specs, mode, ours, k, width)

    @work(thread=True, exit_on_error=False, group="compare", description="comparing the rows")
    def _compare_worker(self, generation: int, text: str, specs: tuple[str, ...], mode: SpecialMode, ours: Any, k: int, width: int) -> None:
        def loading(spec: str, i: int, n: int) -> None:
            self.post_message(self.Loading(generation, spec, i, n))

        try:
            result = run_comparison(generation, text, specs, mode, ours, k, width, self._segments, loading)
        except Exception as exc:  # noqa: BLE001 - rows catch their own errors; this keeps the pane alive
            self.post_message(self.Compared(None, generation, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(self.Compared(result, generation))

    def on_compare_pane_loading(self, message: Loading) -> None:
        self._loading = f"loading {visible_text(sources.row_label(message.spec))}… ({message.i} of {message.n}, off the UI thread)"
        self._show_status()

    def on_compare_pane_compared(self, message: Compared) -> None:
        self._encoding = False
        if self._busy_timer is not None:
            self._busy_timer.stop()
        self._loading = ""
        if message.result is not None:
            self._accept(message.result)
        else:
            self._failure = visible_text(message.error.splitlines()[0] if message.error else "no result")
            self._show_status()
        if self._input_changed:
            self._input_changed = False
            self._start(self._generation)

    def _accept(self, result: Compared) -> None:
        """Draw ``result`` unless something newer was drawn already (stale never wins)."""
        if result.generation < self._drawn:
            return
        self._drawn = result.generation
        self._failure = ""
        self._draw(result)

    # -- drawing ---------------------------------------------------------------------------------
    def _draw(self, r: Compared) -> None:
        """Draw result ``r`` (only the newest is handed over): the views, the lit place, the status."""
        self._result = r
        self.current_row = max(0, min(self.current_row, len(r.labels) - 1))
        self._views.show_result(r, row_list.baseline_index(r.specs, self.baseline), self.current_row)
        self._selection.keep_after(r.comparison)
        self._views.light()
        self._show_status()

    def _show_status(self) -> None:
        r = self._result
        busy = "encoding… the rows below are of the text before the last change" if self._encoding else ""
        failed = f"comparing failed ({self._failure}): the rows below are of an earlier text" if self._failure else ""
        status = status_text(r, self.baseline, self._mode(), self._loading or busy or failed)
        self.query_one("#compare-status", SteadyStatic).show(status)

    def _set_current(self, row: int) -> None:
        self.current_row = row
        self._views.show_current(row)

    def _nav(self, drow: int, dtoken: int) -> None:
        """Arrow keys in the Rows / Text views: another row (keeping the lit place), another token."""
        r = self._result
        if r is None or not r.labels:
            return
        if drow:
            self._set_current(max(0, min(self.current_row + drow, len(r.labels) - 1)))
        self._selection.nav(r.comparison, self.current_row, row_moved=bool(drow), dtoken=dtoken)
        self._views.light()
        picked = self._selection.picked
        if picked is not None:
            self._views.reveal(picked.row, picked.chars[0])

    # -- helpers ---------------------------------------------------------------------------------
    def _mode(self) -> SpecialMode:
        return self.query_one("#compare-special", SpecialModeSelect).mode

    def _ours_key(self, k: int) -> tuple[object, ...]:
        """What the "ours" row shows depends on: a new model, k, or why there is none."""
        state = self._state
        return (state.tokenizer, state.unigram, k, state.training)

    def _sync_slider(self) -> None:
        """Fit the k bar to the app's model; the "ours" row runs again if it changed."""
        self.query_one(KBar).sync()
        self._rerun_ours()

    def _rerun_ours(self) -> None:
        if sources.OURS in self.rows and self._ours_used != self._ours_key(self.k):
            self.schedule(immediate=True)  # the "ours" row changed: a new model or another k
