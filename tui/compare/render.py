"""Colours of the comparison's layout style keys, and its legend: the one table beside the
layout in :mod:`bpe_engine.compare.layout`, re-exported for the pane's widgets.

The layout has already turned every character into a visible cell; the pane only maps the
style keys to these colours.
"""

from __future__ import annotations

from bpe_engine.compare.layout import SEGMENT_STYLES, legend_for

__all__ = ["SEGMENT_STYLES", "legend_for"]
