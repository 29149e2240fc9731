"""Rich ``Text`` for the comparison: the aligned rows from the engine's layout blocks.

The layout (``bpe_engine.compare.layout``) has already turned every character into a visible
cell; this module only maps its style keys to colours and prefixes each row with its label.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from bpe_engine.compare import Block, Comparison
from bpe_engine.display import visible_text

SEGMENT_STYLES: dict[str, str] = {
    "tok0": "black on #89b4fa",
    "tok1": "black on #a6e3a1",
    "split": "bold white on #d20f39",
    "special": "bold black on #f9e2af",
    "gap": "dim",
    "cut": "dim",
    "cut!": "bold #fab387",
    "nocut": "",
    "mark": "bold #fab387",
    "space": "",
}
LEGEND = "│ boundary  ▼ rows disagree  red: character split between tokens  dim: in no token"


def aligned_text(result: Comparison, blocks: Sequence[Block], labels: Sequence[str], total_lines: int) -> Text:
    """All blocks, each as a marker line plus one line per row (errors in red)."""
    width = max((len(label) for label in labels), default=0) + 1
    out = Text(no_wrap=True, overflow="ignore")
    out.append(LEGEND + "\n", "dim")
    for block in blocks:
        out.append(" " * width)
        for seg, style in block.marker:
            out.append(seg, SEGMENT_STYLES[style])
        out.append("\n")
        for label, row, segs in zip(labels, result.rows, block.rows, strict=True):
            out.append(visible_text(label).ljust(width)[:width], "bold")
            if segs is None:
                out.append("(failed: see the table)", "red")
            else:
                for seg, style in segs:
                    out.append(seg, SEGMENT_STYLES[style])
            out.append("\n")
        out.append("\n")
    if total_lines > len(blocks):
        out.append(f"… {total_lines - len(blocks):,} more lines not drawn (the statistics cover the whole text)", "dim")
    return out
