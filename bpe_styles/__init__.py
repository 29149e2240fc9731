"""The colours of the comparison's style keys: one table for both front ends, the app and the CLI.

The engine names what a cell *is* -- a style key such as ``tok0`` or ``split``
(:data:`bpe_engine.compare.layout.STYLE_KEYS`) -- and never how it looks: it imports no rich
and holds no colour. This is the one place the look is decided; the Compare and Inspect panes,
the coloured text widget and ``bpe-explorer compare`` all read this table (no copies), so the
terminal app and the command line always agree.

A package of its own, beside ``tui`` and ``bpe_cli`` rather than inside either: the CLI never
imports the app and the app never imports the CLI (the ``[tool.importlinter]`` contracts in
pyproject.toml), yet both draw these colours. Plain data, rich style strings: importing it loads
neither Textual nor rich.
"""

from __future__ import annotations

SEGMENT_STYLES: dict[str, str] = {
    "tok0": "black on #89b4fa",
    "tok1": "black on #a6e3a1",
    "split": "bold white on #d20f39",
    "special": "bold black on #f9e2af",
    "unknown": "bold white on #8839ef underline",
    "gap": "dim",
    "cut": "dim",
    "cut!": "bold #fab387",
    "nocut": "",
    "mark": "bold #fab387",
    "space": "",
}
"""style key -> rich style string ("" draws the terminal's default). The legend's words
(:data:`bpe_engine.compare.layout.LEGEND`: red, purple, dim) describe these colours."""

__all__ = ["SEGMENT_STYLES"]
