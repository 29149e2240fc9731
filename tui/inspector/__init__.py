"""The Inspect tab: every token of a text down to its bytes (issue 5)."""

from __future__ import annotations

from .pane import InspectorPane

__all__ = ["InspectorPane"]
