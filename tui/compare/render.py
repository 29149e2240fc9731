"""Colours of the comparison's layout style keys, and its legend, for the pane's widgets: the
colours from :mod:`bpe_styles` (the one table the CLI reads too), the legend from
:mod:`bpe_engine.compare.layout`.

The layout has already turned every character into a visible cell; the pane only maps the
style keys to these colours.
"""

from __future__ import annotations

from bpe_engine.compare.layout import legend_for
from bpe_styles import SEGMENT_STYLES

__all__ = ["SEGMENT_STYLES", "legend_for"]
