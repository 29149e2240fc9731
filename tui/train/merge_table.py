"""The live merge list: one row per merge, filled batch by batch while training runs.

Row ``k`` is step ``k``: row 0 is the initial alphabet (no merge applied) and row ``r + 1`` is the
merge of rank ``r``. The app owns the step: the list never moves its own cursor. A user's move
(arrows, page keys, home/end, a click) posts :class:`MergeTable.Selected` with the row asked
for; the app seeks and puts the cursor there with :meth:`MergeTable.select_step`. Cursor
highlight events are ignored, so a late one can never start a seek (the first release
ping-ponged between two steps forever: issue 8.2.2).

The merge column is sized to the widest label *shown*, capped, and recomputed on every reset, so
count and words stay visible after a wide tokenizer (8.2.3).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import DataTable

from bpe_engine.types import MergeStep

from .render import merge_label


class MergeTable(DataTable):
    """rank · left + right → new · count · words changed."""

    class Selected(Message):
        """The user moved the cursor to step ``step`` (merges ``0..step-1`` applied)."""

        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.byte_level = True
        self._merge_width = len("merge")

    def on_mount(self) -> None:
        self._add_columns()

    def _add_columns(self) -> None:
        self.add_column("#", key="rank")
        self.add_column("merge", key="merge", width=self._merge_width)
        self.add_column("count", key="count")
        self.add_column("words", key="words")

    def reset(self, *, byte_level: bool, alphabet: int | None = None) -> None:
        """Empty the list for a new run or a loaded tokenizer; row 0 stands for step 0."""
        self.byte_level = byte_level
        self.clear(columns=True)
        self._merge_width = len("merge")
        self._add_columns()
        what = "initial alphabet" if alphabet is None else f"alphabet ({alphabet:,} symbols)"
        self.add_row(Text("0", style="dim", justify="right"), Text(what, style="italic dim"), "", "")

    def _max_merge_width(self) -> int:
        """The merge column may take what the other columns leave (they stay visible)."""
        others = 8 + 10 + 8 + 4 * 2  # rank, count, words, cell padding
        return max(12, self.scrollable_content_region.width - others)

    def add_steps(self, steps: Sequence[MergeStep]) -> None:
        """Append a batch of merges (rows keep the engine's rank order)."""
        labels = [merge_label(s.left, s.right, s.new, byte_level=self.byte_level) for s in steps]
        rows = [
            (
                Text(f"{s.rank + 1:,}", style="dim", justify="right"),
                label,
                Text(f"{s.count:,}", justify="right"),
                Text(f"{s.words_changed:,}", justify="right"),
            )
            for s, label in zip(steps, labels, strict=True)
        ]
        widest = max((label.cell_len for label in labels), default=0)
        width = min(max(self._merge_width, widest), self._max_merge_width())
        if width != self._merge_width:
            self._merge_width = width
            self.columns[self._column_key("merge")].width = width
            self.columns[self._column_key("merge")].auto_width = False
            self.refresh()
        for label in labels:
            label.truncate(self._merge_width, overflow="ellipsis")
        self.add_rows(rows)

    def _column_key(self, name: str):  # noqa: ANN202 - textual's ColumnKey
        return next(key for key in self.columns if key.value == name)

    def select_step(self, step: int) -> None:
        """Put the cursor on step ``step`` (the app's step); posts nothing."""
        if step >= self.row_count:
            return
        if self.cursor_row != step:
            self.move_cursor(row=step, animate=False)

    # -- user moves: ask the app, never move the cursor here ------------------------------------
    def _ask(self, row: int) -> None:
        if self.row_count:
            self.post_message(self.Selected(max(0, min(row, self.row_count - 1))))

    def action_cursor_down(self) -> None:
        self._ask(self.cursor_row + 1)

    def action_cursor_up(self) -> None:
        self._ask(self.cursor_row - 1)

    def action_page_down(self) -> None:
        self._ask(self.cursor_row + max(1, self.scrollable_content_region.height - 1))

    def action_page_up(self) -> None:
        self._ask(self.cursor_row - max(1, self.scrollable_content_region.height - 1))

    def action_scroll_top(self) -> None:
        self._ask(0)

    def action_scroll_bottom(self) -> None:
        self._ask(self.row_count - 1)

    def action_scroll_home(self) -> None:
        self._ask(0)

    def action_scroll_end(self) -> None:
        self._ask(self.row_count - 1)

    async def _on_click(self, event: events.Click) -> None:
        row = event.style.meta.get("row")
        if isinstance(row, int) and row >= 0:
            event.stop()
            self._ask(row)
            return
        await super()._on_click(event)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()  # the cursor only moves because the app moved it: nothing to report
