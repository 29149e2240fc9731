"""Issue 9 §4 (audit): space tokens in the app's character-level merge table are ``␣``, never blank.

The CLI's merges table showed ``␣`` (its own ``.replace(" ", "␣")`` after
:func:`bpe_engine.display.token_str_label`); the app's table used the same label function
without it, so a char-level merge of a space read ``  + cd →  cd``. The one label function
now marks the space itself, for the CLI and every pane of the app.
"""

from __future__ import annotations

import pytest

import tests.tui.pilot as app_helpers
from bpe_engine.display import token_str_label
from tui.app import ExplorerApp
from tui.train.step_table import StepTable

CORPUS = "ab ab ab\ncd cd cd\nab cd\n" * 3


def test_the_label_of_a_model_string_marks_spaces() -> None:
    assert token_str_label(" cd") == "␣cd" and token_str_label("▁the") == "▁the" and token_str_label("a\n") == "a↵"


@pytest.mark.parametrize("pretok", ["gpt2", "none"])
async def test_char_level_merges_in_the_app_never_show_a_blank_token(pretok: str) -> None:
    app = ExplorerApp(CORPUS)
    async with app.run_test(size=(120, 36)) as pilot:
        app.query_one("#level").value = "char"
        app.query_one("#pretok").value = pretok
        await pilot.pause()
        await app_helpers.set_input(pilot, app, "#vocab", "40")
        await app_helpers.train_to_end(app, pilot)
        table = app.query_one(StepTable)
        labels = [table.cells(row)[1] for row in range(1, table.row_count)]
    assert any("␣" in label for label in labels), labels
    for label in labels:
        left, rest = label.split(" + ", 1)
        right, new = rest.split(" → ", 1)
        assert left.strip() == left and right.strip() == right and new.strip() == new and left and right and new, label
