"""The plain coloured text view: one encoding's text, each token on its own colour.

What tiktokenizer and the OpenAI tokenizer page show -- the text itself, tokens told apart by
alternating colours -- with the token ids or bytes on demand (``i`` / ``b``; ``t`` back to text).
Lines come wrapped from :func:`bpe_engine.compare.text_view.text_view` (every character already in
its safe visible form) and are built for the width the widget has, only when it is drawn. Moving
the pointer over a token posts :class:`TokenText.Pointed`; a click selects it. The owner lights a
character span up with :meth:`TokenText.light`.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from bpe_engine.compare.align import RowAlignment
from bpe_engine.compare.text_view import Piece, ViewMode, text_view
from bpe_engine.types import Encoding
from bpe_styles import SEGMENT_STYLES

STYLES = {key: Style.parse(value) if value else Style() for key, value in SEGMENT_STYLES.items()}
LIT = Style(reverse=True, bold=True, underline=True)
"""How a lit span looks, on top of its token colour (the same in every view)."""


class TokenText(ScrollView, can_focus=True):
    """Wrapped, coloured tokens of one encoding; ``mode`` is text, ids or bytes."""

    DEFAULT_CSS = "TokenText { height: 1fr; }"
    HELP_TITLE = "the coloured text"
    BINDINGS = [
        Binding("t", "mode('text')", "Text", show=False, tooltip="show the tokens as text"),
        Binding("i", "mode('ids')", "Ids", tooltip="show the token ids"),
        Binding("b", "mode('bytes')", "Bytes", tooltip="show the bytes of each token"),
        Binding("left", "nav(0, -1)", "Prev token", show=False, tooltip="the previous token"),
        Binding("right", "nav(0, 1)", "Next token", show=False, tooltip="the next token"),
        Binding("up", "nav(-1, 0)", "Row up", show=False, tooltip="Compare: the row above"),
        Binding("down", "nav(1, 0)", "Row down", show=False, tooltip="Compare: the row below"),
    ]

    class Nav(Message):
        """An arrow key: ``drow`` rows (the owner decides what a row is) and ``dtoken`` tokens."""

        def __init__(self, view: TokenText, drow: int, dtoken: int) -> None:
            super().__init__()
            self.view, self.drow, self.dtoken = view, drow, dtoken

        @property
        def control(self) -> TokenText:
            return self.view

    class Pointed(Message):
        """The pointer is over token ``token`` (None: over none); ``clicked`` for a click."""

        def __init__(self, view: TokenText, token: int | None, clicked: bool) -> None:
            super().__init__()
            self.view = view
            self.token = token
            self.clicked = clicked

        @property
        def control(self) -> TokenText:
            return self.view

    class ModeChanged(Message):
        def __init__(self, view: TokenText, mode: ViewMode) -> None:
            super().__init__()
            self.view = view
            self.mode = mode

        @property
        def control(self) -> TokenText:
            return self.view

    def __init__(self, *, id: str | None = None, mode: ViewMode = "text") -> None:  # noqa: A002
        super().__init__(id=id)
        self.mode: ViewMode = mode
        self._encoding: Encoding | None = None
        self._alignment: RowAlignment | None = None
        self._lines: list[list[Piece]] | None = None
        self._built_width = -1
        self._lit: tuple[int, int] | None = None
        self._lit_token: int | None = None
        self._empty = ""
        self._pointed: int | None = None

    # -- content ---------------------------------------------------------------------------------
    def show(self, encoding: Encoding | None, alignment: RowAlignment | None, *, empty: str = "") -> None:
        """New content (lines are built when drawn, for the width the widget then has)."""
        self._encoding, self._alignment, self._empty = encoding, alignment, empty
        self._lines = None
        self._built_width = -1
        self.refresh()
        self._ensure_lines()

    def light(self, chars: tuple[int, int] | None, token: int | None = None) -> None:
        """Light up characters ``chars`` (and token ``token`` where the span is empty)."""
        if (chars, token) != (self._lit, self._lit_token):
            self._lit, self._lit_token = chars, token
            self.refresh()

    def lines_text(self) -> list[str]:
        """The lines as plain text (tests)."""
        self._ensure_lines()
        return ["".join(p.text for p in line) for line in self._lines or []]

    def action_nav(self, drow: int, dtoken: int) -> None:
        self.post_message(self.Nav(self, drow, dtoken))

    def action_mode(self, mode: ViewMode) -> None:
        if mode != self.mode:
            self.mode = mode
            self._lines = None
            self._built_width = -1
            self.refresh()
            self._ensure_lines()
            self.post_message(self.ModeChanged(self, mode))

    # -- drawing ---------------------------------------------------------------------------------
    def on_resize(self) -> None:
        self._ensure_lines()

    def _ensure_lines(self) -> None:
        width = self.scrollable_content_region.width or self.size.width
        if self._lines is not None and width == self._built_width:
            return
        if not self.is_mounted or width <= 0:
            return
        if self._encoding is None or self._alignment is None:
            self._lines = []
        else:
            self._lines = text_view(self._encoding, self._alignment, self.mode, max(width - 1, 8))
        self._built_width = width
        self.virtual_size = Size(width, max(len(self._lines), 1))
        self.refresh()

    def render_line(self, y: int) -> Strip:
        self._ensure_lines()
        line_no = y + self.scroll_offset.y
        lines = self._lines or []
        if not lines and line_no == 0 and self._empty:
            return Strip([Segment(self._empty, Style(dim=True))])
        if line_no >= len(lines):
            return Strip.blank(self.size.width)
        segments = [Segment(p.text, self._style(p)) for p in lines[line_no]]
        return Strip(segments).crop(0, self.size.width)

    def _style(self, p: Piece) -> Style:
        style = STYLES.get(p.style, Style())
        if p.token >= 0 and self._is_lit(p):
            return style + LIT
        return style

    def _is_lit(self, p: Piece) -> bool:
        if self._lit is None:
            return False
        start, end = self._lit
        if end <= start:
            return p.token == self._lit_token
        return p.chars[0] < end and p.chars[1] > start if p.chars[1] > p.chars[0] else start <= p.chars[0] < end

    # -- pointer ---------------------------------------------------------------------------------
    def token_at(self, x: int, y: int) -> int | None:
        """The token under content cell (x, y), scroll included."""
        lines = self._lines or []
        line_no = y + self.scroll_offset.y
        if not 0 <= line_no < len(lines):
            return None
        used = 0
        for p in lines[line_no]:
            used += p.cells
            if x < used:
                return p.token if p.token >= 0 else None
        return None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        offset = event.get_content_offset(self)
        token = self.token_at(offset.x, offset.y) if offset is not None else None
        if token != self._pointed:
            self._pointed = token
            self.post_message(self.Pointed(self, token, False))

    def on_leave(self, event: events.Leave) -> None:
        if self._pointed is not None:
            self._pointed = None
            self.post_message(self.Pointed(self, None, False))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        token = self.token_at(offset.x, offset.y) if offset is not None else None
        if token is not None:
            self.post_message(self.Pointed(self, token, True))
