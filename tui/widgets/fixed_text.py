"""A text panel whose size comes from CSS alone, so updating it never re-lays-out the screen.

``Static.update`` always asks for a layout refresh (its content may change its size); with a
1 MB corpus in the editor and thousands of rows in the merge list that costs far more than the
step itself. The stepping views change on every key press and have fixed sizes, so they use
this widget: ``show`` stores the visual and repaints only the widget. ``content`` mirrors
``Static.content`` for tests.
"""

from __future__ import annotations

from textual.visual import VisualType
from textual.widget import Widget


class FixedText(Widget):
    """Paints one visual (rich Text, Content, renderable) clipped to the widget's CSS size."""

    DEFAULT_CSS = "FixedText { height: 1fr; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, markup=False)
        self._visual: VisualType = ""

    @property
    def content(self) -> VisualType:
        return self._visual

    def show(self, visual: VisualType) -> None:
        self._visual = visual
        self.refresh()

    def render(self) -> VisualType:
        return self._visual
