"""The Inspect tab (issue 5 replaces this placeholder with the real inspector)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Static


class InspectorPane(Widget):
    """Placeholder pane; see tui/messages.py for StepChanged and app.tokenizer_at_step()."""

    DEFAULT_CSS = "InspectorPane { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield Static("The token inspector arrives with issue 5.", markup=False)
