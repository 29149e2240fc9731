"""A paste of any size into any field: the field holds what it can edit and says what it cut; the
corpus editor keeps the whole text for training and shows its head.

A 10 MB paste into Inspect froze the app for ~40 s at 11.6 GB: Textual's Input measures its whole
value on every key (2 s per key at 1 MB) and the pane encoded, detailed and aligned every token.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from tests.tui.pilot import settle_panes, toasts
from tui.app import ExplorerApp
from tui.compare import ComparePane
from tui.inspect import InspectorPane
from tui.screens import PathScreen
from tui.train.corpus_pane import EDIT_LIMIT, CorpusPane
from tui.widgets.safe_text import AREA_CAPACITY, FIELD_CAPACITY, SafeInput, SafeTextArea

PASTED = "a long pasted text, line after line\n" * 30_000  # 1,080,000 characters



async def test_a_long_paste_into_inspect_keeps_what_the_box_holds_and_says_so() -> None:
    app = ExplorerApp("corpus\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f3")
        await settle_panes(pilot)
        box = app.query_one("#inspect-input", SafeInput)
        box.focus()
        box.value = ""
        box.post_message(events.Paste(PASTED))
        await settle_panes(pilot)
        assert len(box.value) == FIELD_CAPACITY and box.value == PASTED[:FIELD_CAPACITY]
        pane = app.query_one(InspectorPane)
        assert pane.result is not None and pane.result.text == PASTED[:FIELD_CAPACITY]
        assert f"pasted {len(PASTED):,} characters; this box holds {FIELD_CAPACITY:,}" in toasts(app)[-1]


async def test_a_long_paste_into_compare_keeps_what_the_box_holds_and_says_so() -> None:
    app = ExplorerApp("corpus\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f4")
        await settle_panes(pilot)
        area = app.query_one("#compare-text", SafeTextArea)
        area.focus()
        area.load_text("")
        area.post_message(events.Paste(PASTED))
        await settle_panes(pilot)
        assert len(area.text) == AREA_CAPACITY and area.text == PASTED[:AREA_CAPACITY]
        assert app.query_one(ComparePane).text == PASTED[:AREA_CAPACITY]
        assert f"this box holds {AREA_CAPACITY:,}, so the first {AREA_CAPACITY:,} were kept" in toasts(app)[-1]


async def test_a_long_paste_into_the_corpus_is_kept_whole_for_training() -> None:
    app = ExplorerApp("start: ")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        area = app.query_one("#corpus-text", SafeTextArea)
        area.focus()
        area.move_cursor(area.document.end)
        area.post_message(events.Paste(PASTED))
        await settle_panes(pilot)
        pane = app.query_one(CorpusPane)
        assert len(pane.text) == len("start: " + PASTED) and pane.text == "start: " + PASTED  # training uses all
        assert area.read_only and area.text == pane.text[:EDIT_LIMIT]
        assert f"first {EDIT_LIMIT:,} of {len(pane.text):,} characters" in str(area.border_subtitle)


async def test_a_long_paste_into_a_dialog_keeps_what_the_box_holds() -> None:
    app = ExplorerApp("corpus\n")
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(PathScreen("Open a corpus file"))
        await pilot.pause()
        box = app.screen.query_one(Input)
        assert isinstance(box, SafeInput) and box.has_focus
        box.post_message(events.Paste("/tmp/" + "x" * 1_000_000))
        await pilot.pause()
        assert len(box.value) == FIELD_CAPACITY
        assert "this box holds" in toasts(app)[-1]
