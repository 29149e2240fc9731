"""The Compare tab: one text, any number of tokenizers, aligned on one character axis as you type.

Each edit runs the comparison again (:mod:`.runs`: on the UI thread when the text is small and
every tokenizer is loaded, in a worker otherwise; one run at a time, the newest input next, and a
stale result never drawn over a newer one).

Six views of the same result, one at a time (``v`` or a click on their tabs): **Rows** (every row
on the character axis; the pointer lights a token's span up in all rows), **Stats** (every row's
counts, graphemes beside code points, and its cost against the baseline row ★), **Text** (the
current row as plain coloured text; ids or bytes on demand), **Curve** (the training's
compression curve), **Chat** (the text as a conversation: the prompt each row's model builds
with its chat format, control tokens lit, and its count) and **Languages** (the current row's premium on
the UDHR in 532 languages: :mod:`.languages_view`). Rows come from a searchable picker (``a``); ``c`` copies the current row's ids.

The pane owns the feature -- the rows, the current row, the baseline and the drawn result -- and
composes the parts that do one job each: the runs (:mod:`.runs`), the lit token
(:mod:`.selection`), the row list's rules (:mod:`.row_list`), the k bar (:mod:`.k_bar`) and the
views the result is drawn in (:mod:`.views`).

The pane reads nothing from the app: the app sets :attr:`ComparePane.state` (model, merges,
step k) while the tab is visible. k follows the Train step until the user moves the slider;
the label says which ("follows Train" or "fixed"), and ``f`` follows again.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, ContentSwitcher, DataTable, Select, Tab, Tabs, TextArea

from bpe_engine.choices import COMPARE_ROWS
from bpe_engine.compare.spans import TokenPick
from bpe_engine.compare.text_view import ViewMode
from bpe_engine.types import SpecialMode

from ..models.flow import choose_tokenizers
from ..state import ExplorerState
from ..state_pane import StatePane
from ..widgets.clipboard import copy_ids
from ..widgets.safe_text import SafeTextArea
from ..widgets.special_mode import SpecialModeSelect
from ..widgets.steady_static import SteadyStatic
from ..widgets.token_text import TokenText
from . import row_list
from .aligned import AlignedRows
from .chart import CurveChart
from .chat_view import ChatView
from .info import status_text
from .k_bar import KBar
from .languages_view import LanguagesView
from .running import CompareResult
from .runs import SYNC_LIMIT, Runs
from .selection import Selection
from .slider import MergeSlider
from .stats_table import StatsTable
from .views import VIEWS, Views

DEFAULT_TEXT = "The tokenizer doesn't see words: 한국어 텍스트는 바이트로 쪼개진다. 👩‍👩‍👧 naïve café"

# SYNC_LIMIT: the tests and the benchmark read it here.
__all__ = ["DEFAULT_TEXT", "SYNC_LIMIT", "ComparePane"]


class ComparePane(StatePane):
    """Rows of tokenizers on one text; pick rows, light spans, read the statistics, slide k."""

    BINDINGS = [
        Binding("a", "add_rows", "Rows…", tooltip="add or remove rows: a searchable picker of every tokenizer"),
        Binding("v", "cycle_view(1)", "View", tooltip="next view: Rows, Stats, Text, Curve, Chat, Languages"),
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

        def __init__(self, result: CompareResult | None, generation: int, error: str = "") -> None:
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
        super().__init__(id=id, state=state)
        self._initial_text = text
        self.rows: list[str] = list(rows)
        self.baseline: str | None = row_list.baseline_among(rows, None)
        self.current_row = 0
        self._result: CompareResult | None = None
        self._runs = Runs(self, self._draw, self._show_status)
        self._selection = Selection()
        self._views = Views(self)

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
            yield ChatView(id="compare-chat")
            yield LanguagesView(id="compare-languages")
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

    def state_moved(self, old: ExplorerState, new: ExplorerState) -> None:
        """The slider follows the step (unless the user slid it); the curve is of the new model."""
        self.query_one(KBar).state = new
        self._sync_slider()
        self._views.redraw_curve()

    @property
    def k(self) -> int:
        return self.query_one(KBar).k

    @property
    def special_mode(self) -> SpecialMode:
        return self.query_one("#compare-special", SpecialModeSelect).mode

    @property
    def row_width(self) -> int:
        """The width the aligned rows wrap to."""
        return self._views.row_width()

    @property
    def result(self) -> CompareResult | None:
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

    def schedule(self, *, immediate: bool = False) -> None:
        """Compare again once the current event is handled (or at once)."""
        self._runs.schedule(immediate=immediate)

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
        self._runs.rerun_ours()
        self._views.redraw_curve()

    def on_resize(self) -> None:
        """The aligned rows wrap to a new width (a Resize at the same width runs nothing)."""
        self._runs.rewrap()

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

    def on_token_text_pointed(self, message: TokenText.Pointed) -> None:
        message.stop()
        r = self._result
        if r is None or message.view.id != "compare-colored":
            return
        self._selection.point_at_token(r.comparison, self.current_row, message.token, clicked=message.clicked)
        self._views.light()

    def on_aligned_rows_nav(self, message: AlignedRows.Nav) -> None:
        message.stop()
        self._nav(message.drow, message.dtoken)

    def on_token_text_nav(self, message: TokenText.Nav) -> None:
        message.stop()
        self._nav(message.drow, message.dtoken)

    def on_token_text_mode_changed(self, message: TokenText.ModeChanged) -> None:
        message.stop()
        self._views.draw_text()

    def on_compare_pane_loading(self, message: Loading) -> None:
        self._runs.loading(message.spec, message.i, message.n)

    def on_compare_pane_compared(self, message: Compared) -> None:
        self._runs.finished(message.result, message.error)

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

    def action_text_view(self, mode: ViewMode) -> None:
        """t / i / b from anywhere in the pane but the text box: the Text view, in that mode (they
        were keys of that view only, and did nothing from the Rows after esc)."""
        self.show_view("compare-text-view")
        colored = self.query_one("#compare-colored", TokenText)
        colored.action_mode(mode)
        colored.focus()

    def action_step_k(self, delta: int) -> None:
        self.set_k(self.k + delta)

    def action_follow(self) -> None:
        """k follows the Train step again."""
        self.query_one(KBar).following = True
        self._sync_slider()
        self._views.redraw_curve()

    # -- drawing ---------------------------------------------------------------------------------
    def _draw(self, r: CompareResult) -> None:
        """Draw result ``r`` (the runs hand over only the newest): the views, the lit place, the status."""
        self._result = r
        self.current_row = max(0, min(self.current_row, len(r.labels) - 1))
        self._views.show_result(r, row_list.baseline_index(r.specs, self.baseline), self.current_row)
        self._selection.keep_after(r.comparison)
        self._views.light()
        self._show_status()

    def _show_status(self) -> None:
        status = status_text(self._result, self.baseline, self.special_mode, self._runs.note)
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

    def _sync_slider(self) -> None:
        """Fit the k bar to the app's model; the "ours" row runs again if it changed."""
        self.query_one(KBar).sync()
        self._runs.rerun_ours()
