"""The Compare tab: many tokenizers on one text, aligned on one character axis."""

from __future__ import annotations

from pathlib import Path

from .pane import ComparePane

STYLESHEET = Path(__file__).with_name("compare.tcss")
"""The tab's stylesheet (the app lists it in ``CSS_PATH``; a test host mounting the pane alone does too)."""

__all__ = ["ComparePane", "STYLESHEET"]
