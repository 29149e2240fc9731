"""The Compare tab (issue 5 replaces this placeholder with the real comparison)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Static


class ComparePane(Widget):
    """Placeholder pane; see tui/messages.py for StepChanged and app.tokenizer_at_step()."""

    DEFAULT_CSS = "ComparePane { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield Static("The tokenizer comparison arrives with issue 5.", markup=False)
