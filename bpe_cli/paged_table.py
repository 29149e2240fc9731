"""A table printed page by page: linear time, memory bounded by one page, whatever the row count.

``rich.table.Table`` measures every cell of every row before printing the first line, then
renders each cell through its wrapping machinery: about 13 ms per row at 40,000 rows, so
``inspect`` of a 2.4 MB text (600,000 tokens) never finished. Here rows are buffered one page at
a time, columns are as wide as the widest cell seen so far (they only grow), and the header is
printed again whenever a column grows, so the columns below a header always line up with it.
Cells are rich ``Text`` (styled, never markup) and are padded by their terminal cell width.

>>> from io import StringIO
>>> from rich.console import Console
>>> out = StringIO()
>>> table = PagedTable(Console(file=out, width=60), ["#", "token"], right=("#",))
>>> table.add_row(["0", ("hello", "bold")])
>>> table.add_row(["1", [("한", "bold"), (" (a note)", "red")]])
>>> table.close()
>>> print(out.getvalue().rstrip())
#  token
0  hello
1  한 (a note)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.text import Span, Text

PAGE_ROWS = 2048
GAP = "  "

Cell = str | tuple[str, str] | Sequence[tuple[str, str]]
"""A cell: plain text, ``(text, style)``, or several ``(text, style)`` parts. Text must already be
in visible form (:func:`bpe_engine.display.visible_text`); styles are rich style strings."""


def _parts(cell: Cell) -> list[tuple[str, str]]:
    if isinstance(cell, str):
        return [(cell, "")]
    if len(cell) == 2 and isinstance(cell[0], str) and isinstance(cell[1], str):
        return [(cell[0], cell[1])]
    return [part for part in cell if isinstance(part, tuple)]


def _width(text: str) -> int:
    return len(text) if text.isascii() else cell_len(text)


class PagedTable:
    """Rows in, aligned lines out, one page at a time (see the module docstring)."""

    def __init__(
        self,
        console: Console,
        columns: Sequence[str],
        *,
        right: Iterable[str] = (),
        title: str | None = None,
        page_rows: int | None = None,
        gap: str = GAP,
    ) -> None:
        self.console = console
        self.gap = gap
        self.columns = list(columns)
        self.right = [c in frozenset(right) for c in self.columns]
        self.title = title
        self.page_rows = page_rows or PAGE_ROWS
        self.widths = [_width(c) for c in self.columns]
        self._shown_widths: list[int] | None = None
        self._titled = False
        self._page: list[list[tuple[str, int, list[tuple[str, str]] | None]]] = []
        self._styled = console.color_system is not None and not console.no_color

    def add_row(self, cells: Sequence[Cell]) -> None:
        row = []
        widths = self.widths
        for i, cell in enumerate(cells):
            if isinstance(cell, str):
                text, parts = cell, None
            else:
                parts = _parts(cell)
                text = "".join(t for t, _ in parts)
            width = _width(text)
            if width > widths[i]:
                widths[i] = width
            row.append((text, width, parts))
        self._page.append(row)
        if len(self._page) >= self.page_rows:
            self.flush()

    def flush(self) -> None:
        """Print the buffered rows (and a header first if the columns grew)."""
        if not self._page and self._shown_widths is not None:
            return
        header = None
        if self._shown_widths != self.widths:
            header = [(c, _width(c), [(c, "bold")]) for c in self.columns]
            self._shown_widths = list(self.widths)
        rows = ([header] if header else []) + self._page
        title = self.title if header is not None and not self._titled else None
        self._titled = True
        self._page = []
        if self._styled:
            self._print_styled(rows, title)
        else:
            lines = [title] if title else []
            lines += [self._plain_line(row) for row in rows]
            self.console.file.write("\n".join(lines) + "\n")

    def close(self) -> None:
        self.flush()

    def _plain_line(self, row: Sequence[tuple[str, int, Any]]) -> str:
        """No colour (a pipe, NO_COLOR): plain padded text, built with str operations only."""
        widths, right = self.widths, self.right
        out = [
            (" " * (widths[i] - width) + text) if right[i] else (text + " " * (widths[i] - width))
            for i, (text, width, _) in enumerate(row)
        ]
        return self.gap.join(out).rstrip(" ")

    def _print_styled(self, rows: list[list[tuple[str, int, Any]]], title: str | None) -> None:
        chunks: list[str] = []
        spans: list[Span] = []
        pos = 0
        if title:
            spans.append(Span(0, len(title), "italic"))
            chunks.append(title + "\n")
            pos = len(title) + 1
        for row in rows:
            last = len(row) - 1
            for i, (text, width, parts) in enumerate(row):
                pad = " " * (self.widths[i] - width)
                if self.right[i]:
                    chunks.append(pad)
                    pos += len(pad)
                for part, style in parts or ((text, ""),):
                    if style and part:
                        spans.append(Span(pos, pos + len(part), style))
                    chunks.append(part)
                    pos += len(part)
                if i < last:
                    tail = ("" if self.right[i] else pad) + self.gap
                    chunks.append(tail)
                    pos += len(tail)
            chunks.append("\n")
            pos += 1
        self.console.print(Text("".join(chunks), spans=spans), end="", overflow="ignore", crop=False, no_wrap=True)


__all__ = ["PAGE_ROWS", "Cell", "PagedTable"]
