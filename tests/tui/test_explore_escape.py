"""esc leaves a text box: the tab's keys (v, c, arrows) then act instead of being typed.

Seen by hand in a terminal: in Compare, esc did nothing inside the text box, so a ``v`` typed
after it went into the text instead of changing the view."""

from __future__ import annotations

from textual.widgets import Input, Tabs, TextArea

from tests.explore_pilot import settle
from tui.app import ExplorerApp
from tui.compare import ComparePane
from tui.compare.aligned import AlignedRows

SMALL = "low lower lowest newer wider\nthe cat sat on the mat, the end.\n"


async def test_esc_in_compares_text_box_leaves_it_for_the_shown_view() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f4")
        await settle(pilot)
        area = app.query_one("#compare-text", TextArea)
        pane = app.query_one(ComparePane)
        assert area.has_focus
        await pilot.press("a", "b")
        await pilot.press("escape")
        await settle(pilot)
        assert app.query_one(AlignedRows).has_focus  # the Rows view, shown, takes the keys
        await pilot.press("v")
        await settle(pilot)
        assert area.text.endswith("ab") and pane.view == "compare-rows"  # v changed the view
        # from the Curve (a view that takes no keys) esc hands the keys to the views' tabs
        pane.show_view("compare-curve")
        area.focus()
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.query_one("#compare-views", Tabs).has_focus


async def test_esc_in_inspects_text_box_leaves_it_for_the_tokens() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f3")
        await settle(pilot)
        box = app.query_one("#inspect-input", Input)
        assert box.has_focus
        before = box.value
        await pilot.press("escape")
        await settle(pilot)
        assert app.query_one("#inspect-chips").has_focus  # ←/→ now step through the tokens
        await pilot.press("c")  # copy ids: a key of the pane, not a letter typed
        await settle(pilot)
        assert box.value == before
