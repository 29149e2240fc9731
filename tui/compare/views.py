"""Compare's six views of one result, one shown at a time: Rows, Stats, Text, Curve, Chat and Languages.

:class:`Views` draws the pane's result into them: the aligned rows on every result, the Stats
table, the Text view and the Chat view only when they are on screen (a new result marks a hidden one stale and it
is filled when shown: the Stats table alone was ~4 ms of every key), the chart only while shown. It
lights the lit token's span in every view and describes it on the info line, moves the current
row's marks, and gives the keyboard to the shown view.

It reads what to draw from its pane (the result, the current row, the baseline, the lit token) at
the moment it draws -- the pane owns that state -- and touches widgets only on the UI thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import ContentSwitcher, Tabs

from bpe_engine.display import visible_text

from ..models import sources
from ..widgets.steady_static import SteadyStatic
from ..widgets.token_text import TokenText
from . import running
from .aligned import AlignedRows
from .chart import CurveChart
from .chat_view import ChatView
from .info import row_heads, selection_line, text_title
from .languages_view import LanguagesView
from .row_list import baseline_index
from .running import CompareResult
from .stats_table import StatsTable

if TYPE_CHECKING:
    from .pane import ComparePane

VIEWS: tuple[tuple[str, str], ...] = (
    ("compare-aligned", "Rows"),
    ("compare-rows", "Stats"),
    ("compare-text-view", "Text"),
    ("compare-curve", "Curve"),
    ("compare-chat", "Chat"),
    ("compare-languages", "Languages"),
)
"""(widget id, tab label) of the views, in the order ``v`` cycles them."""
FILLED_WHEN_SHOWN = frozenset({"compare-rows", "compare-text-view", "compare-chat"})
"""Views a new result marks stale instead of drawing while hidden (a hidden view does no work:
the Stats table alone was ~4 ms of every key)."""


class Views:
    """The view switcher of one pane, and what each view shows of the pane's result."""

    def __init__(self, pane: ComparePane) -> None:
        self.pane = pane
        self._stale: set[str] = set()  # hidden views whose result came while hidden
        self._languages_for: tuple[str, int] | None = None  # the (row spec, k) the Languages view measured

    @property
    def current(self) -> str:
        return self.pane.query_one(ContentSwitcher).current or VIEWS[0][0]

    # -- switching -------------------------------------------------------------------------------
    def show(self, view: str) -> None:
        """Show ``view`` now: the switcher changes at once (the tab follows), so a key that comes
        right behind this one -- ``v v v`` arrive together in a terminal -- reads the new view."""
        self.pane.query_one(ContentSwitcher).current = view
        self.fill_shown()
        self.measure_languages()
        self.pane.query_one("#compare-views", Tabs).active = f"tab-{view}"

    def activated(self, view: str) -> None:
        """The view's tab was activated (a click, or the tab row's keys)."""
        self.pane.query_one(ContentSwitcher).current = view
        self.fill_shown()
        if view == "compare-curve":
            self.redraw_curve()  # a hidden chart does no work: drawn when shown
        self.measure_languages()
        self.light()

    def cycle(self, delta: int) -> None:
        """The view ``delta`` places on, with the keyboard on it (its keys work at once)."""
        ids = [wid for wid, _ in VIEWS]
        self.show(ids[(ids.index(self.current) + delta) % len(ids)])
        self.focus()

    def focus(self) -> bool:
        """The keyboard to the shown view (the Text view's coloured text takes it for that view);
        False when the view takes no keys."""
        view = self.current
        if view == "compare-languages":
            self.pane.query_one(LanguagesView).focus_list()
            return True
        target = self.pane.query_one("#compare-colored") if view == "compare-text-view" else self.pane.query_one(f"#{view}")
        if target.can_focus:
            target.focus()
        return target.can_focus

    # -- drawing ---------------------------------------------------------------------------------
    def show_result(self, r: CompareResult, baseline: int | None, current_row: int) -> None:
        """A new result: the shown view at once, the hidden ones when shown, and the aligned rows
        (the view the pointer and the arrows work on)."""
        self._stale = set(FILLED_WHEN_SHOWN)
        self.fill_shown()
        heads = row_heads(r.labels, r.comparison, baseline)
        aligned = self.pane.query_one(AlignedRows)
        aligned.set_current(current_row)
        label_width = max((len(h) for h in heads), default=0) + 1
        aligned.show(r.comparison, r.ranges, r.cuts, heads, r.width - label_width)

    def fill_shown(self) -> None:
        """Fill the shown view if the result came while it was hidden."""
        pane, view = self.pane, self.current
        if view not in self._stale:
            return
        self._stale.discard(view)
        r = pane.result
        if view == "compare-rows" and r is not None:
            pane.query_one(StatsTable).show(r.labels, r.comparison, baseline_index(r.specs, pane.baseline), pane.current_row)
        elif view == "compare-text-view":
            self.draw_text()
        elif view == "compare-chat" and r is not None:
            self.draw_chat(r)

    def draw_chat(self, r: CompareResult) -> None:
        """The Chat view: the text as a conversation, each row's prompt (the rows' tokenizers are
        loaded: the run that made ``r`` loaded them)."""
        pane = self.pane
        ours = lambda: pane.state.ours(pane.k)  # noqa: E731
        rows = [(label, sources.get(spec, ours)) for spec, label in zip(r.specs, r.labels)]
        pane.query_one(ChatView).show(r.comparison.text, rows)

    def draw_text(self) -> None:
        """The Text view: the current row as coloured text (ids or bytes in its mode), or marked
        stale while hidden."""
        pane = self.pane
        if self.current != "compare-text-view":
            self._stale.add("compare-text-view")
            return
        r, row = pane.result, pane.current_row
        view = pane.query_one("#compare-colored", TokenText)
        if r is None or not 0 <= row < len(r.comparison.rows):
            view.show(None, None, empty="no rows: press a to add some")
            return
        shown = r.comparison.rows[row]
        view.show(shown.encoding, shown.alignment, empty=f"(failed: {visible_text(shown.error or '')})")
        pane.query_one("#compare-text-title", SteadyStatic).show(text_title(r, row, view.mode))

    def show_current(self, row: int) -> None:
        """Row ``row`` became the current one: its mark in the rows, the table's cursor, the Text view."""
        self.pane.query_one(AlignedRows).set_current(row)
        table = self.pane.query_one(StatsTable)
        if "compare-rows" not in self._stale and table.row_count and table.cursor_row != row:
            table.move_cursor(row=row)
        self.draw_text()
        self.measure_languages()

    def measure_languages(self) -> None:
        """The Languages view measures the current row's tokenizer -- only while it is shown, and
        only when the row or (for "ours") k changed since it last did."""
        pane = self.pane
        if self.current != "compare-languages" or not 0 <= pane.current_row < len(pane.rows):
            return
        spec = pane.rows[pane.current_row]
        key = (spec, pane.k if spec == sources.OURS else 0)
        if key == self._languages_for:
            return
        self._languages_for = key
        state, k = pane.state, pane.k
        label = running.row_labels((spec,), k)[0]
        pane.query_one(LanguagesView).show_for(spec, label, lambda: state.ours(k))

    def light(self) -> None:
        """Light the span of the pane's lit token in every view, and describe it."""
        pane = self.pane
        r, lit = pane.result, pane.lit
        chars = lit.chars if lit is not None else None
        pane.query_one(AlignedRows).light(chars)
        token = lit.token if lit is not None and lit.row == pane.current_row else None  # the Text view shows the current row
        pane.query_one("#compare-colored", TokenText).light(chars, token)
        info = selection_line(r, lit) if r is not None else Text()
        pane.query_one("#compare-info", SteadyStatic).show(info)

    def reveal(self, row: int, char: int) -> None:
        """Scroll the aligned rows to character ``char`` of row ``row`` (an arrow key moved there)."""
        self.pane.query_one(AlignedRows).reveal(row, char)

    def redraw_curve(self) -> None:
        """The compression curve at the pane's k, while the Curve is shown (hidden, it does no work);
        the Languages view measures "ours" at the new k when it is the one shown."""
        pane = self.pane
        if pane.is_mounted and self.current == "compare-curve":
            pane.query_one(CurveChart).redraw(pane.state, pane.k)
        if pane.is_mounted:
            self.measure_languages()

    def row_width(self) -> int:
        """The width the aligned rows wrap to (the view's border and scrollbar taken off)."""
        return max(self.pane.query_one(ContentSwitcher).size.width or self.pane.app.size.width, 40) - 4
