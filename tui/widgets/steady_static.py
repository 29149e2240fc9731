"""A ``Static`` that asks for a layout pass only when its height changes.

``Static.update`` lays the whole screen out again by default: every widget placed, every region
compared. A status line that changes with each key but keeps its height needs a repaint, not a
layout; on the Compare tab two such lines (the lit token, the counts) cost a layout pass per key,
and the counts reached the terminal a frame later than the rows.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static


class SteadyStatic(Static):
    """Shows rich ``Text``; lays the screen out again only when its wrapped height changes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lines = -1

    def show(self, text: Text) -> None:
        width = self.content_region.width
        lines = len(text.wrap(self.app.console, width)) if width > 0 else -1
        self.update(text, layout=lines < 0 or lines != self._lines)
        self._lines = lines
