"""A merge-prefix slider: drag or click the bar, or step with ←/→ (shift: 5% at a time)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class MergeSlider(Widget, can_focus=True):
    """``value`` in ``0..maximum``; posts :class:`MergeSlider.Changed` when it moves."""

    DEFAULT_CSS = "MergeSlider { height: 1; width: 1fr; min-width: 20; }"
    HELP_TITLE = "the k slider"
    BINDINGS = [
        Binding("left", "step(-1)", "k−1", show=False, tooltip="k − 1"),
        Binding("right", "step(1)", "k+1", show=False, tooltip="k + 1"),
        Binding("shift+left", "step_big(-1)", "k−5%", show=False, tooltip="k back by 5 % of the merges"),
        Binding("shift+right", "step_big(1)", "k+5%", show=False, tooltip="k on by 5 % of the merges"),
        Binding("home", "set(0)", "k=0", show=False, tooltip="k = 0: no merges"),
        Binding("end", "set(-1)", "k=max", show=False, tooltip="k = every merge"),
    ]

    value: reactive[int] = reactive(0, init=False)
    maximum: reactive[int] = reactive(0)

    class Changed(Message):
        def __init__(self, slider: MergeSlider, value: int) -> None:
            super().__init__()
            self.slider = slider
            self.value = value

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self._dragging = False

    def render(self) -> Text:
        width = max(self.size.width, 4)
        if self.maximum <= 0:
            return Text("─" * width, style="dim")
        pos = round(self.value / self.maximum * (width - 1))
        out = Text()
        out.append("━" * pos, style="bold #89b4fa")
        out.append("●", style="bold #f9e2af" if self.has_focus else "bold #89b4fa")
        out.append("─" * (width - 1 - pos), style="dim")
        return out

    def set_range(self, maximum: int, value: int | None = None) -> None:
        """New maximum (and value) without announcing it as a user move."""
        self.maximum = max(maximum, 0)
        with self.prevent(self.Changed):
            self.value = max(0, min(self.value if value is None else value, self.maximum))

    def validate_value(self, value: int) -> int:
        return max(0, min(value, self.maximum))

    def watch_value(self, value: int) -> None:
        self.post_message(self.Changed(self, value))

    def action_step(self, delta: int) -> None:
        self.value += delta

    def action_step_big(self, direction: int) -> None:
        self.value += direction * max(1, self.maximum // 20)

    def action_set(self, value: int) -> None:
        self.value = self.maximum if value < 0 else value

    def _from_x(self, x: int) -> None:
        width = max(self.size.width - 1, 1)
        self.value = round(max(0, min(x, width)) / width * self.maximum)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self._dragging = True
        self.capture_mouse()
        self._from_x(event.x)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self._dragging:
            self._from_x(event.x)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        self._dragging = False
        self.release_mouse()
