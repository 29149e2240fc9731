"""The merge list (rank, left + right → new, count, words): its labels, its cursor, its columns.

Space tokens in the app's character-level merge table are ``␣``, never blank. The step has one
owner: a step the app seeks moves the list's cursor, and the list posts nothing back. Every column
fits, so the count and words of even the last row are on screen.

The CLI's merges table showed ``␣`` (its own ``.replace(" ", "␣")`` after
:func:`bpe_engine.display.token_str_label`); the app's table used the same label function
without it, so a char-level merge of a space read ``  + cd →  cd``. The one label function
now marks the space itself, for the CLI and every pane of the app.
"""

from __future__ import annotations

import pytest

from bpe_engine.display import token_str_label
from tests.tui.pilot import SMALL, set_input, train_to_end
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
        await set_input(pilot, app, "#vocab", "40")
        await train_to_end(app, pilot)
        table = app.query_one(StepTable)
        labels = [table.cells(row)[1] for row in range(1, table.row_count)]
    assert any("␣" in label for label in labels), labels
    for label in labels:
        left, rest = label.split(" + ", 1)
        right, new = rest.split(" → ", 1)
        assert left.strip() == left and right.strip() == right and new.strip() == new and left and right and new, label


async def test_a_step_the_app_seeks_moves_the_cursor_and_the_merge_list_posts_nothing_back() -> None:
    """Selection has one owner: the app's seek moves the list's cursor and the list posts nothing
    back (the first release took its own late highlight event for a user move and ping-ponged)."""
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "290")
        await train_to_end(app, pilot)
        table = app.query_one(StepTable)
        posted: list[object] = []
        post = table.post_message
        table.post_message = lambda message: posted.append(message) or post(message)  # type: ignore[method-assign]
        for step in (5, 2, 5):
            app.train_pane.seek(step)
            await pilot.pause()
        assert not [m for m in posted if isinstance(m, StepTable.Selected)]
        assert app.train_pane.current_step == 5 and table.cursor_row == 5
        table.focus()
        await pilot.press("down", "down", "up")  # real user moves still step
        await pilot.pause()
        assert app.train_pane.current_step == 6 and table.cursor_row == 6


async def test_the_count_and_words_columns_stay_visible(alice_text: str) -> None:
    app = ExplorerApp(alice_text[:20000])
    async with app.run_test(size=(120, 40)) as pilot:
        await set_input(pilot, app, "#vocab", "1500")
        await train_to_end(app, pilot)
        await pilot.pause(0.6)
        table = app.query_one(StepTable)
        header = table.render_line(0).text
        assert header.rstrip().endswith("count  words"), "every column fits: count and words visible"
        last = table.cells(table.row_count - 1)
        app.train_pane.seek(table.row_count - 1)
        await pilot.pause()
        shown_row = table.render_line(table.row_count - round(table.scroll_y)).text
        assert shown_row.split()[-2:] == [last[2], last[3]], "the last row's count and words are drawn"
