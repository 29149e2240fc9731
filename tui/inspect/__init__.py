"""The Inspect tab: every token of a text down to its bytes."""

from __future__ import annotations

from pathlib import Path

from .pane import DEFAULT_SPEC, InspectorPane

STYLESHEET = Path(__file__).with_name("inspect.tcss")
"""The tab's stylesheet (the app lists it in ``CSS_PATH``; a test host mounting the pane alone does too)."""

__all__ = ["DEFAULT_SPEC", "InspectorPane", "STYLESHEET"]
