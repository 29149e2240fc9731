"""The aligned rows as a scrollable Line-API view: only the lines on screen are ever built.

A 5 KB text makes ~60 wrapped blocks of eight lines each, tens of thousands of styled cells.
Building them all (or one huge ``Static``) costs more than encoding the seven rows, so the pane
hands over the comparison and the wrapped character ranges, and each block is laid out
(:func:`bpe_engine.compare.layout.block`) the first time one of its lines scrolls into view.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from bpe_engine.compare import Comparison, block
from bpe_engine.display import visible_text

from .render import LEGEND, SEGMENT_STYLES

_STYLES = {key: Style.parse(value) if value else Style() for key, value in SEGMENT_STYLES.items()}
_LABEL = Style(bold=True)
_DIM = Style(dim=True)
_ERROR = Style(color="red")


class AlignedRows(ScrollView, can_focus=True):
    """Marker line + one line per row, per wrapped block; blocks built lazily and cached."""

    DEFAULT_CSS = "AlignedRows { height: 1fr; border: round $primary 30%; }"

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self._comparison: Comparison | None = None
        self._ranges: Sequence[tuple[int, int]] = ()
        self._cuts: frozenset[int] = frozenset()
        self._labels: tuple[str, ...] = ()
        self._label_width = 0
        self._cache: dict[int, list[Strip]] = {}

    def show(self, comparison: Comparison, ranges: Sequence[tuple[int, int]], cuts: frozenset[int], labels: Sequence[str], width: int) -> None:
        """New content; lines are built when drawn."""
        self._comparison, self._ranges, self._cuts = comparison, ranges, cuts
        self._labels = tuple(visible_text(label) for label in labels)
        self._label_width = max((len(label) for label in self._labels), default=0) + 1
        self._cache = {}
        self.virtual_size = Size(width + self._label_width + 2, 1 + len(ranges) * self._block_height)
        self.refresh()

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

    def _line(self, y: int) -> Strip:
        if self._comparison is None:
            return Strip.blank(0)
        if y == 0:
            return Strip([Segment(LEGEND, _DIM)])
        b, row = divmod(y - 1, self._block_height)
        if b >= len(self._ranges):
            return Strip.blank(0)
        strips = self._cache.get(b)
        if strips is None:
            strips = self._cache[b] = self._build(b)
        return strips[row]

    def _build(self, b: int) -> list[Strip]:
        assert self._comparison is not None
        start, end = self._ranges[b]
        blk = block(self._comparison, start, end, self._cuts)
        pad = " " * self._label_width
        strips = [_strip([Segment(pad)], blk.marker)]
        for label, segs in zip(self._labels, blk.rows, strict=True):
            head = [Segment(label.ljust(self._label_width)[: self._label_width], _LABEL)]
            if segs is None:
                strips.append(Strip([*head, Segment("(failed: see above)", _ERROR)]))
            else:
                strips.append(_strip(head, segs))
        strips.append(Strip.blank(0))
        return strips


def _strip(head: list[Segment], segs: Sequence[tuple[str, str]]) -> Strip:
    segments = head + [Segment(text, _STYLES[style]) for text, style in segs]
    return Strip(segments, sum(cell_len(s.text) for s in segments))
