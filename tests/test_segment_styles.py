"""One colour table for the app and the CLI: every style key the engine emits has a look, once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rich.style import Style

import bpe_styles as colours
from bpe_engine.compare.layout import STYLE_KEYS


def test_the_colour_table_covers_exactly_the_engines_style_keys() -> None:
    assert sorted(colours.SEGMENT_STYLES) == sorted(STYLE_KEYS)
    for key, spec in colours.SEGMENT_STYLES.items():
        assert spec == "" or Style.parse(spec), key  # a valid rich style string


def test_the_app_and_the_cli_read_the_same_table() -> None:
    from bpe_cli import cmd_compare
    from tui.compare import render
    from tui.inspect import render as inspect_render
    from tui.widgets import token_text

    assert cmd_compare.SEGMENT_STYLES is colours.SEGMENT_STYLES
    assert render.SEGMENT_STYLES is colours.SEGMENT_STYLES
    assert inspect_render.CHIP_STYLES == (colours.SEGMENT_STYLES["tok0"], colours.SEGMENT_STYLES["tok1"])
    assert set(token_text.STYLES) == set(colours.SEGMENT_STYLES)


def test_the_colour_table_loads_no_textual() -> None:
    """The CLI reads it and never loads Textual outside the app."""
    code = "import sys, bpe_styles; print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))"
    env = {**os.environ, "PYTHONPATH": str(Path(colours.__file__).parents[1])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env, timeout=60).stdout
    assert out.strip() == "[]"
