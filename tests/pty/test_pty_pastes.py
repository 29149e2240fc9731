"""Pastes in a real terminal: what arrives is what was pasted, and a paste of any size leaves the
app answering.

A pasted escape sequence was mangled by Textual's input parser (``A␛[2JB…E`` arrived in Inspect as
``^[2JBCD^]0;TEA``: the characters after the ESC came as typed keys, ahead of the paste), and a
10 MB paste into Inspect froze the app for ~40 s at 11.6 GB.
"""

from __future__ import annotations

import re

from tests.pty.pty_terminal import Terminal
from tui.widgets.safe_text import FIELD_CAPACITY

WITH_ESCAPES = "A\x1b[2JB\x1b]0;TEA\x07C\x1b[31mD"
"""Shown in the one-line box as ``A␛[2JB␛]0;TEA␇C␛[31mD``: 22 code points."""
SHOWN = "A␛[2JB␛]0;TEA␇C␛[31mD"


def characters(screen: str) -> int | None:
    m = re.search(r"tokens, ([\d,]+) characters", screen)
    return int(m.group(1).replace(",", "")) if m else None


def empty_inspect(term: Terminal) -> None:
    term.press("f3")
    term.wait_for("Corpus selection", 30)
    term.press("end", *["backspace"] * 40, pause=0.005)  # the box's sample text is gone
    term.wait_for(lambda s: characters(s) == 0, 10)


def test_a_pasted_escape_sequence_is_inspected_as_pasted(run_app) -> None:  # noqa: ANN001
    term: Terminal = run_app()
    term.wait_for("ready")
    empty_inspect(term)
    term.paste(WITH_ESCAPES)
    screen = term.wait_for(lambda s: characters(s) == len(WITH_ESCAPES), 10)
    assert SHOWN in screen, screen
    assert "^[" not in screen  # no ESC turned into a typed caret
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def test_a_paste_of_megabytes_into_inspect_keeps_the_box_size_and_the_app_answers(run_app) -> None:  # noqa: ANN001
    pasted = "the quick brown fox jumps over the lazy dog, 한국어 텍스트\n" * 40_000  # 2.3 MB
    term: Terminal = run_app()
    term.wait_for("ready")
    empty_inspect(term)
    term.paste(pasted)
    screen = term.wait_for(lambda s: characters(s) == FIELD_CAPACITY, 60)
    assert f"pasted {len(pasted):,} characters" in screen, screen  # the toast says what was kept
    term.press("f4")  # a tab switch is answered
    term.wait_for("add a row", 30)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def test_a_hostile_paste_into_the_command_palette_never_reaches_the_terminal(run_app) -> None:  # noqa: ANN001
    from tests.pty.test_pty_hostile import assert_raw_inert

    term: Terminal = run_app()
    term.wait_for("ready")
    term.press("ctrl+p")
    term.wait_for("Open corpus file", 10)
    mark = term.mark
    term.paste("a\x9b31m\u202eb\x9d0;T\x9c\u2066c\u200dd\x7fe")
    term.wait_for("a¤31m¦b¤0;T¤¦c¦d␡e", 10)
    assert_raw_inert(term.raw_since(mark), "a paste into the command palette")
    term.press("escape")
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0
