"""The statistics of every row, one table line each, with the cost against a chosen baseline row.

"vs base" is the row's token count against the baseline row's on the same text (``×1.52 (+26)``):
with Korean text in the box and o200k_base as the baseline, it is each tokenizer's Korean premium.
"Rényi" and "Shannon" are the row's Rényi (α 2.5) and Shannon efficiency: how evenly it spends its
tokens over the types it uses, ``bpe-explorer metrics``'s figures (computed with the row's other
statistics, in the comparison's worker: :func:`bpe_engine.compare.stats.row_stats`).

The table is drawn in the widest of :data:`LAYOUTS` that fits its width, measured on the cells
it is about to show (a long text's ``×1.95 (+1,173)`` is wider than a short one's): at 80 columns
the full headers pushed "partial" and "UNK" out of sight, so narrower terminals get short headers
(``cp/t``, ``part``), then lose Shannon, then Rényi -- at 80 columns a short text keeps Rényi, a
5,000-character one the table it had before the efficiencies came.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import DataTable

from bpe_engine.compare import Comparison
from bpe_engine.compare.stats import RowStats, relative_cost
from bpe_engine.display import visible_text

COLUMNS = ("row", "tokens", "vs base", "cp/tok", "graph/tok", "bytes/tok", "tok/word", "Rényi", "Shannon", "partial", "UNK")
COMPACT_COLUMNS = ("row", "tok", "vs ★", "cp/t", "gr/t", "B/t", "t/w", "Rény", "Shan", "part", "UNK")
"""The same columns with short headers, for a terminal the full ones do not fit."""
RENYI, SHANNON = COLUMNS.index("Rényi"), COLUMNS.index("Shannon")
LAYOUTS: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...] = (
    (COLUMNS, tuple(range(len(COLUMNS)))),
    (COMPACT_COLUMNS, tuple(range(len(COLUMNS)))),
    (COMPACT_COLUMNS, tuple(i for i in range(len(COLUMNS)) if i != SHANNON)),
    (COMPACT_COLUMNS, tuple(i for i in range(len(COLUMNS)) if i not in (RENYI, SHANNON))),
)
"""(headers, the columns shown), widest first; the last is used when none fits (the table scrolls)."""
SCROLLBAR = 2
"""Cells kept free for a vertical scrollbar (more rows than the table has lines)."""
BASELINE_MARK = "★"

Cell = str | Text


class StatsTable(DataTable):
    """Counts and ratios per row; the cursor is the pane's current row."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._layout: tuple[tuple[str, ...], tuple[int, ...]] | None = None
        self._cells: list[tuple[Cell, ...]] = []  # every row's cells, all of COLUMNS
        self._cursor = 0

    def on_mount(self) -> None:
        self._draw(self._fit())

    def on_resize(self) -> None:
        """A terminal resized past a layout's width gets that layout."""
        layout = self._fit()
        if layout != self._layout:
            self._draw(layout)

    def show(self, labels: tuple[str, ...], comparison: Comparison, baseline: int | None, cursor: int) -> None:
        base = comparison.rows[baseline].stats if baseline is not None and baseline < len(comparison.rows) else None
        self._cells = [_cells(label, row.stats, base, i == baseline) for i, (label, row) in enumerate(zip(labels, comparison.rows, strict=True))]
        self._cursor = cursor
        self._draw(self._fit())

    def _fit(self) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The widest layout whose columns, as wide as their headers and cells, fit the table (the
        terminal, before the table has a size: it is sized once shown, and fitted again then)."""
        width, height = self.size
        room = width or self.app.size.width
        if len(self._cells) + 1 > height:  # the header and the rows need a vertical scrollbar (or no height yet)
            room -= SCROLLBAR
        for layout in LAYOUTS:
            if _width(layout, self._cells, self.cell_padding) <= room:
                return layout
        return LAYOUTS[-1]

    def _draw(self, layout: tuple[tuple[str, ...], tuple[int, ...]]) -> None:
        headers, shown = layout
        if layout != self._layout:
            self.clear(columns=True)
            self.add_columns(*(headers[i] for i in shown))
            self._layout = layout
        else:
            self.clear()
        for cells in self._cells:
            self.add_row(*(cells[i] for i in shown))
        if self._cells:
            self.move_cursor(row=max(0, min(self._cursor, len(self._cells) - 1)))


def _cells(label: str, s: RowStats | None, base: RowStats | None, is_baseline: bool) -> tuple[Cell, ...]:
    """One row's cells, a value for each of :data:`COLUMNS`."""
    name = Text(visible_text(label), style="bold")
    if is_baseline:
        name.append(f" {BASELINE_MARK}", "bold #f9e2af")
    if s is None:
        return (name, Text("error", style="red"), *[""] * (len(COLUMNS) - 2))
    cost = relative_cost(s, base)
    vs = "baseline" if is_baseline else (cost.label() if cost is not None else "–")
    return (
        name,
        f"{s.tokens:,}",
        Text(vs, style="bold" if cost is not None and (cost.ratio or 0) > 1 and not is_baseline else ""),
        _num(s.chars_per_token),
        _num(s.graphemes_per_token),
        _num(s.bytes_per_token),
        _num(s.tokens_per_word),
        _num(s.renyi_efficiency),
        _num(s.shannon_efficiency),
        _pct(s.partial_share),
        _pct(s.unk_rate),
    )


def _width(layout: tuple[tuple[str, ...], tuple[int, ...]], rows: Sequence[tuple[Cell, ...]], padding: int) -> int:
    """How many cells the table is wide in ``layout``: each column as wide as its widest cell or
    header, with the table's padding on both sides."""
    headers, shown = layout
    return sum(max([cell_len(headers[i]), *(_len(row[i]) for row in rows)]) + 2 * padding for i in shown)


def _len(cell: Cell) -> int:
    return cell.cell_len if isinstance(cell, Text) else cell_len(cell)


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"
