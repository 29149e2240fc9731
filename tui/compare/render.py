"""Colours of the comparison's layout style keys (``bpe_engine.compare.layout``), and its legend.

The layout has already turned every character into a visible cell; the pane only maps the
style keys to these colours.
"""

from __future__ import annotations

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
