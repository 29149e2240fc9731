"""The Compare tab: many tokenizers on one text, aligned on one character axis (issue 5)."""

from __future__ import annotations

from .pane import ComparePane

__all__ = ["ComparePane"]
