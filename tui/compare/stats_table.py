"""The statistics of every row, one table line each, with the cost against a chosen baseline row.

"vs base" is the row's token count against the baseline row's on the same text (``×1.52 (+26)``):
with Korean text in the box and o200k_base as the baseline, it is each tokenizer's Korean premium.

Below :data:`COMPACT_BELOW` columns the headers are short (``cp/t``, ``part``): at 80 columns the
full ones pushed "partial" and "UNK" out of sight (the table is ~94 cells wide with them).
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from bpe_engine.compare import Comparison
from bpe_engine.compare.stats import relative_cost
from bpe_engine.display import visible_text

COLUMNS = ("row", "tokens", "vs base", "cp/tok", "graph/tok", "bytes/tok", "tok/word", "partial", "UNK")
COMPACT_COLUMNS = ("row", "tok", "vs ★", "cp/t", "gr/t", "B/t", "t/w", "part", "UNK")
"""The same columns with short headers, for a terminal narrower than :data:`COMPACT_BELOW`."""
COMPACT_BELOW = 100
BASELINE_MARK = "★"


class StatsTable(DataTable):
    """Counts and ratios per row; the cursor is the pane's current row."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._headers: tuple[str, ...] = ()
        self._shown: tuple[tuple[str, ...], Comparison, int | None, int] | None = None

    def on_mount(self) -> None:
        self._set_headers()

    def on_resize(self) -> None:
        """A terminal resized across :data:`COMPACT_BELOW` gets the other headers."""
        if self._wanted_headers() != self._headers and self._shown is not None:
            self.show(*self._shown)

    def _wanted_headers(self) -> tuple[str, ...]:
        return COMPACT_COLUMNS if self.app.size.width < COMPACT_BELOW else COLUMNS

    def _set_headers(self) -> None:
        headers = self._wanted_headers()
        if headers != self._headers:
            self.clear(columns=True)
            self.add_columns(*headers)
            self._headers = headers

    def show(self, labels: tuple[str, ...], comparison: Comparison, baseline: int | None, cursor: int) -> None:
        self._shown = (labels, comparison, baseline, cursor)
        self.clear()
        self._set_headers()
        base = comparison.rows[baseline].stats if baseline is not None and baseline < len(comparison.rows) else None
        for i, (label, row) in enumerate(zip(labels, comparison.rows, strict=True)):
            name = Text(visible_text(label), style="bold")
            if i == baseline:
                name.append(f" {BASELINE_MARK}", "bold #f9e2af")
            s = row.stats
            if s is None:
                self.add_row(name, Text("error", style="red"), *[""] * (len(COLUMNS) - 2))
                continue
            cost = relative_cost(s, base)
            vs = "baseline" if i == baseline else (cost.label() if cost is not None else "–")
            self.add_row(
                name,
                f"{s.tokens:,}",
                Text(vs, style="bold" if cost is not None and (cost.ratio or 0) > 1 and i != baseline else ""),
                _num(s.chars_per_token),
                _num(s.graphemes_per_token),
                _num(s.bytes_per_token),
                _num(s.tokens_per_word),
                _pct(s.partial_share),
                _pct(s.unk_rate),
            )
        if labels:
            self.move_cursor(row=max(0, min(cursor, len(labels) - 1)))


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"
