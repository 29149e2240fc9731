"""The comparison view's data: rows of tokenizers aligned on one character axis, with statistics
and the compression curve. Pure functions; the app and the CLI only render them."""

from __future__ import annotations

from .align import RowAlignment, agreement, align_row, disagreements
from .curve import (
    CurvePoint,
    EfficiencyPoint,
    ReferenceLevel,
    compression_curve,
    efficiency_curve,
    initial_symbol_count,
    reference_level,
)
from .layout import LEGEND, Block, Segment, block, cell_text, cell_width, layout, legend_for, wrap_axis
from .rows import CompareRow, Comparison, compare
from .stats import RowStats, row_stats

__all__ = [
    "LEGEND",
    "legend_for",
    "Block",
    "Segment",
    "block",
    "cell_text",
    "cell_width",
    "layout",
    "wrap_axis",
    "CompareRow",
    "Comparison",
    "CurvePoint",
    "EfficiencyPoint",
    "ReferenceLevel",
    "RowAlignment",
    "RowStats",
    "agreement",
    "align_row",
    "compare",
    "compression_curve",
    "disagreements",
    "efficiency_curve",
    "initial_symbol_count",
    "reference_level",
    "row_stats",
]
