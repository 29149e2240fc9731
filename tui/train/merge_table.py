"""The live merge list: one row per merge, filled batch by batch while training runs.

Row ``k`` is step ``k``: row 0 is the initial alphabet (no merge applied) and row ``r + 1`` is the
merge of rank ``r``, so the row cursor *is* the step selector. Highlighting a row posts
:class:`MergeTable.Selected`; the app moves the cursor the other way with
:meth:`MergeTable.select_step`, which does not echo a message back.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
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
        self._expected_row = 0  # the row the app put the cursor on; its highlight is no user choice

    def on_mount(self) -> None:
        self.add_column("#", key="rank")
        self.add_column("merge", key="merge")
        self.add_column("count", key="count")
        self.add_column("words", key="words")

    def reset(self, *, byte_level: bool, alphabet: int | None = None) -> None:
        """Empty the list for a new run or a loaded tokenizer; row 0 stands for step 0."""
        self.byte_level = byte_level
        self._expected_row = 0
        self.clear()
        what = "initial alphabet" if alphabet is None else f"initial alphabet ({alphabet:,} symbols)"
        self.add_row(Text("0", style="dim", justify="right"), Text(what, style="italic dim"), "", "")

    def add_steps(self, steps: Sequence[MergeStep]) -> None:
        """Append a batch of merges (rows keep the engine's rank order)."""
        rows = [
            (
                Text(f"{s.rank + 1:,}", style="dim", justify="right"),
                merge_label(s.left, s.right, s.new, byte_level=self.byte_level),
                Text(f"{s.count:,}", justify="right"),
                Text(f"{s.words_changed:,}", justify="right"),
            )
            for s in steps
        ]
        self.add_rows(rows)

    def select_step(self, step: int) -> None:
        """Put the cursor on step ``step`` without posting Selected."""
        if step >= self.row_count:
            return
        self._expected_row = step
        if self.cursor_row != step:
            self.move_cursor(row=step, animate=False)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.cursor_row != self._expected_row:
            self._expected_row = event.cursor_row
            self.post_message(self.Selected(event.cursor_row))
