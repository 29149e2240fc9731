"""The aligned rows as a scrollable Line-API view: only the lines on screen are ever built.

A 5 KB text makes ~60 wrapped blocks of (rows + 2) lines each, tens of thousands of styled cells.
Building them all (or one huge ``Static``) costs more than encoding the rows, so the pane hands
over the comparison and the wrapped character ranges, and each block is laid out
(:func:`bpe_engine.compare.layout.block`) the first time one of its lines scrolls into view.

Every row shares the block's columns (:func:`bpe_engine.compare.layout.block_columns`), so the
pointer maps back to a character of the axis: moving over a row posts :class:`AlignedRows.Pointed`
and the pane lights that token's character span up in *every* row (:meth:`AlignedRows.light`),
the way tiktokenizer lights one token -- here across all tokenizers at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from bpe_engine.compare import Comparison, block
from bpe_engine.compare.layout import block_columns
from bpe_engine.display import visible_text

from ..widgets.token_text import LIT, STYLES
from .render import legend_for
from .unchanged import unchanged_before

_LABEL = Style(bold=True)
_CURRENT = Style(bold=True, reverse=True)
_DIM = Style(dim=True)
_ERROR = Style(color="red")


class AlignedRows(ScrollView, can_focus=True):
    """Marker line + one line per row, per wrapped block; blocks built lazily and cached."""

    DEFAULT_CSS = "AlignedRows { height: 1fr; border: round $primary 30%; }"
    HELP_TITLE = "the Rows view"
    BINDINGS = [
        Binding("left", "nav(0, -1)", "Prev token", show=False, tooltip="light the previous token of the current row"),
        Binding("right", "nav(0, 1)", "Next token", show=False, tooltip="light the next token of the current row"),
        Binding("up", "nav(-1, 0)", "Row up", show=False, tooltip="the row above becomes the current row"),
        Binding("down", "nav(1, 0)", "Row down", show=False, tooltip="the row below becomes the current row"),
    ]

    class Nav(Message):
        """An arrow key: ``drow`` rows and ``dtoken`` tokens from the current place."""

        def __init__(self, drow: int, dtoken: int) -> None:
            super().__init__()
            self.drow, self.dtoken = drow, dtoken

    class Pointed(Message):
        """The pointer is over character ``char`` of row ``row`` (None: over no row cell)."""

        def __init__(self, row: int | None, char: int | None, clicked: bool) -> None:
            super().__init__()
            self.row = row
            self.char = char
            self.clicked = clicked

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self._comparison: Comparison | None = None
        self._ranges: Sequence[tuple[int, int]] = ()
        self._cuts: frozenset[int] = frozenset()
        self._labels: tuple[str, ...] = ()
        self._label_width = 0
        self._cache: dict[int, list[Strip]] = {}
        self._bodies: dict[tuple[int, int], Body] = {}  # block (start, end) -> its cells without the heads
        self._reusable: dict[tuple[int, int], Body] = {}  # bodies of the last result still drawn the same
        self._columns: dict[int, tuple[int, ...]] = {}
        self._lit: tuple[int, int] | None = None
        self._current = -1
        self._pointed: tuple[int | None, int | None] = (None, None)

    def show(self, comparison: Comparison, ranges: Sequence[tuple[int, int]], cuts: frozenset[int], labels: Sequence[str], width: int) -> None:
        """New content. ``labels`` are the row heads (name, count); ``width`` the cells of the axis.

        Only the cells that differ on screen are repainted: a key typed into a 5 KB text changes
        one block and perhaps some counts, and repainting every visible row sent ~40 KB of styled
        cells to the terminal per key."""
        before = self._visible_lines() if self._comparison is not None else None
        geometry = (self._label_width, self._block_height)
        old = self._comparison
        self._comparison, self._ranges, self._cuts = comparison, ranges, cuts
        self._labels = tuple(visible_text(label) for label in labels)
        self._label_width = max((cell_len(label) for label in self._labels), default=0) + 1
        # Blocks ending before the first change draw the same cells: keep their bodies (laying a
        # block out needs each row's owner of every character, ~45 % of a key into 5 KB).
        drawn_to = max((end for _, end in self._bodies), default=-1) + 1
        stable = unchanged_before(old, comparison, drawn_to) if old is not None else 0
        self._reusable = {span: body for span, body in self._bodies.items() if span[1] < stable}
        self._bodies = {}
        self._cache = {}
        self._columns = {}
        self.virtual_size = Size(width + self._label_width, 1 + len(ranges) * self._block_height)
        if before is None or geometry != (self._label_width, self._block_height):
            self.refresh()
            return
        self._refresh_changed(before)

    def light(self, chars: tuple[int, int] | None) -> None:
        """Light characters ``chars`` up in every row (None: nothing lit)."""
        if chars != self._lit:
            self._lit = chars
            self.refresh()

    def set_current(self, row: int) -> None:
        """Mark row ``row`` as the one the row keys act on."""
        if row != self._current:
            self._current = row
            self._cache = {}
            self.refresh()

    @property
    def label_width(self) -> int:
        return self._label_width

    @property
    def _block_height(self) -> int:
        return len(self._labels) + 2  # marker, rows, blank

    def lines_text(self) -> list[str]:
        """Every line as plain text (tests and debugging; builds all blocks)."""
        return [strip.text for y in range(self.virtual_size.height) for strip in [self._line(y)]]

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        strip = self._line(y + scroll_y)
        return strip.crop(scroll_x, scroll_x + self.size.width)

    # -- lines -----------------------------------------------------------------------------------
    def _visible_lines(self) -> dict[int, Strip]:
        """The unlit strips of the lines on screen that were drawn (built blocks only)."""
        top, height = self.scroll_offset.y, self.size.height
        out: dict[int, Strip] = {}
        for y in range(top, top + height):
            b, row = divmod(y - 1, self._block_height)
            strips = self._cache.get(b) if y >= 1 else None
            if strips is not None:
                out[y] = strips[row]
        return out

    def _refresh_changed(self, before: dict[int, Strip]) -> None:
        """Repaint the cells of the visible lines whose content differs from ``before``."""
        top, height = self.scroll_offset.y, self.size.height
        left = self.scroll_offset.x
        for y in range(max(top, 1), top + height):
            old = before.get(y)
            new = self._base_line(y)
            if old is None:
                self.refresh_line(y)
                continue
            span = changed_cells(old, new)
            if span is not None:
                x0, x1 = span
                self.refresh(Region(x0 - left, y - top, x1 - x0, 1))

    def _line(self, y: int) -> Strip:
        strip = self._base_line(y)
        if self._lit is not None and y >= 1:
            b, row = divmod(y - 1, self._block_height)
            if b < len(self._ranges) and 0 <= row <= len(self._labels):
                strip = self._lit_strip(b, strip)
        return strip

    def _base_line(self, y: int) -> Strip:
        """Line ``y`` of the content, without the lit span."""
        if self._comparison is None:
            return Strip.blank(0)
        if y == 0:
            return Strip([Segment(legend_for(self.size.width), _DIM)])  # cut, it lost its end
        b, row = divmod(y - 1, self._block_height)
        if b >= len(self._ranges):
            return Strip.blank(0)
        strips = self._cache.get(b)
        if strips is None:
            strips = self._cache[b] = self._build(b)
        return strips[row]

    def _build(self, b: int) -> list[Strip]:
        assert self._comparison is not None
        span = self._ranges[b]
        body = self._bodies.get(span) or self._reusable.get(span)
        if body is None:
            blk = block(self._comparison, *span, self._cuts)
            body = (_cells(blk.marker), tuple(None if segs is None else _cells(segs) for segs in blk.rows))
        self._bodies[span] = body
        marker, rows = body
        strips = [_strip([Segment(" " * self._label_width)], marker)]
        for i, (label, cells) in enumerate(zip(self._labels, rows, strict=True)):
            style = _CURRENT if i == self._current else _LABEL
            head = [Segment(label.ljust(self._label_width - 1)[: self._label_width - 1], style), Segment(" ")]
            if cells is None:  # its reason in place (the status lines below repeat it)
                why = visible_text(self._comparison.rows[i].error or "failed")
                strips.append(Strip([*head, Segment(f"({why})", _ERROR)]))
            else:
                strips.append(_strip(head, cells))
        strips.append(Strip.blank(0))
        return strips

    def _block_columns(self, b: int) -> tuple[int, ...]:
        cols = self._columns.get(b)
        if cols is None:
            assert self._comparison is not None
            start, end = self._ranges[b]
            cols = self._columns[b] = block_columns(self._comparison.text, start, end, self._cuts)
        return cols

    def _lit_strip(self, b: int, strip: Strip) -> Strip:
        """``strip`` with the cells of the lit characters (and the separators between them) lit."""
        assert self._lit is not None
        lo, hi = self._lit
        start, end = self._ranges[b]
        if hi <= lo or hi <= start or lo >= end:
            return strip
        cols = self._block_columns(b)
        inside = [x for x, c in enumerate(cols) if lo <= c < hi]
        if not inside:
            return strip
        x0, x1 = self._label_width + inside[0], self._label_width + inside[-1] + 1
        before, middle, after = (list(strip.divide([x0, x1, strip.cell_length])) + [Strip([]), Strip([])])[:3]
        lit = Strip([Segment(s.text, (s.style or Style()) + LIT, s.control) for s in middle], middle.cell_length)
        return Strip.join([before, lit, after])

    def action_nav(self, drow: int, dtoken: int) -> None:
        self.post_message(self.Nav(drow, dtoken))

    def reveal(self, row: int, char: int) -> None:
        """Scroll so that character ``char`` of row ``row`` is on screen (the block holding it)."""
        b = next((i for i, (s, e) in enumerate(self._ranges) if s <= char < e), None)
        if b is None:
            return
        top = 1 + b * self._block_height
        cols = self._block_columns(b)
        x = self._label_width + next((i for i, c in enumerate(cols) if c == char), 0)
        self.scroll_to_region(Region(x, top, 1, self._block_height - 1), animate=False, immediate=True)

    # -- pointer ---------------------------------------------------------------------------------
    def position(self, x: int, y: int) -> tuple[int | None, int | None]:
        """(row, character) under content cell (x, y), scroll included; Nones where there is none."""
        if self._comparison is None:
            return None, None
        x += self.scroll_offset.x
        y += self.scroll_offset.y
        if y < 1:
            return None, None
        b, line = divmod(y - 1, self._block_height)
        if b >= len(self._ranges) or not 1 <= line <= len(self._labels):
            return None, None
        row = line - 1
        cols = self._block_columns(b)
        col = x - self._label_width
        if not 0 <= col < len(cols):
            return row, None
        if cols[col] < 0 and col + 1 < len(cols):
            col += 1  # a separator column belongs to the character after it
        return row, (cols[col] if cols[col] >= 0 else None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        offset = event.get_content_offset(self)
        where = self.position(offset.x, offset.y) if offset is not None else (None, None)
        if where != self._pointed:
            self._pointed = where
            self.post_message(self.Pointed(where[0], where[1], False))

    def on_leave(self, event: events.Leave) -> None:
        if self._pointed != (None, None):
            self._pointed = (None, None)
            self.post_message(self.Pointed(None, None, False))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            row, char = self.position(offset.x, offset.y)
            if row is not None:
                self.post_message(self.Pointed(row, char, True))


Cells = tuple[list[Segment], int]
"""A line's styled segments and their width in cells."""
Body = tuple[Cells, tuple[Cells | None, ...]]
"""A block without its row heads: the marker line, and each row's cells (None: the row failed)."""


def _cells(segs: Sequence[tuple[str, str]]) -> Cells:
    segments = [Segment(text, STYLES[style]) for text, style in segs]
    return segments, sum(cell_len(s.text) for s in segments)


def _strip(head: list[Segment], cells: Cells) -> Strip:
    segments, width = cells
    return Strip(head + segments, sum(cell_len(s.text) for s in head) + width)


def changed_cells(old: Strip, new: Strip) -> tuple[int, int] | None:
    """The cells ``[x0, x1)`` between the first and the last segment where ``old`` and ``new``
    differ (None: the same line), so a changed count repaints the count, not the row."""
    if old == new:
        return None
    a, b = list(old), list(new)
    x0 = i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        x0 += cell_len(a[i].text)
        i += 1
    end_a, end_b = old.cell_length, new.cell_length
    j = 0
    while j < min(len(a), len(b)) - i and a[-1 - j] == b[-1 - j] and end_a == end_b:
        end_a -= cell_len(a[-1 - j].text)
        end_b -= cell_len(b[-1 - j].text)
        j += 1
    return x0, max(end_a, end_b, x0 + 1)
