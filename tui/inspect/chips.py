"""The token chips line: focusable, ←/→ moves the selected token, a click selects one."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from bpe_engine.inspect import PartialGroup, TokenDetail

from .render import chips_text


class TokenChips(Widget, can_focus=True):
    """Shows the chips; posts :class:`TokenChips.Selected` when the selection moves."""

    DEFAULT_CSS = "TokenChips { height: auto; min-height: 3; max-height: 12; padding: 0 1; border: round $primary 50%; }"
    HELP_TITLE = "the token chips"
    BINDINGS = [
        Binding("left", "move(-1)", "Prev token", show=True, tooltip="select the previous token"),
        Binding("right", "move(1)", "Next token", show=True, tooltip="select the next token"),
        Binding("home", "jump(0)", "First", show=False, tooltip="select the first token"),
        Binding("end", "jump(-1)", "Last", show=False, tooltip="select the last token"),
    ]

    selected: reactive[int] = reactive(0)

    class Selected(Message):
        """The user selected token ``index``."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class Pointed(Message):
        """The pointer is over chip ``index`` (None: over none)."""

        def __init__(self, index: int | None) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self._details: Sequence[TokenDetail] = ()
        self._groups: Sequence[PartialGroup] = ()
        self._text = ""
        self._byte_level = False
        self._lit: int | None = None
        self._pointed: int | None = None

    def show(self, details: Sequence[TokenDetail], groups: Sequence[PartialGroup], text: str, *, byte_level: bool) -> None:
        self._details, self._groups, self._text, self._byte_level = details, groups, text, byte_level
        self.selected = min(self.selected, max(len(details) - 1, 0))
        self.refresh(layout=True)

    def render(self) -> Text:
        return chips_text(self._details, self._groups, self._text, self.selected, byte_level=self._byte_level, lit=self._lit)

    def light(self, index: int | None) -> None:
        """Underline chip ``index`` (the token under the pointer in the text view)."""
        if index != self._lit:
            self._lit = index
            self.refresh()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        token = event.style.meta.get("token") if event.style is not None else None
        index = token if isinstance(token, int) else None
        if index != self._pointed:
            self._pointed = index
            self.post_message(self.Pointed(index))

    def on_leave(self, event: events.Leave) -> None:
        if self._pointed is not None:
            self._pointed = None
            self.post_message(self.Pointed(None))

    def watch_selected(self, value: int) -> None:
        self.post_message(self.Selected(value))

    def action_move(self, delta: int) -> None:
        if self._details:
            self.selected = max(0, min(self.selected + delta, len(self._details) - 1))

    def action_jump(self, index: int) -> None:
        if self._details:
            self.selected = index % len(self._details)

    def action_select_token(self, index: int) -> None:
        if 0 <= index < len(self._details):
            self.selected = index
            self.focus()
