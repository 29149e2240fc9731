"""esc leaves a text box: the tab's keys (v, c, arrows) then act instead of being typed.

Seen by hand in a terminal: in Compare, esc did nothing inside the text box, so a ``v`` typed
after it went into the text instead of changing the view."""

from __future__ import annotations

from textual.widgets import Input, Tabs, TextArea

from tests.tui.pilot import settle_panes
from tui.app import ExplorerApp
from tui.compare import ComparePane
from tui.compare.aligned import AlignedRows

SMALL = "low lower lowest newer wider\nthe cat sat on the mat, the end.\n"


async def test_esc_in_compares_text_box_leaves_it_for_the_shown_view() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f4")
        await settle_panes(pilot)
        area = app.query_one("#compare-text", TextArea)
        pane = app.query_one(ComparePane)
        assert area.has_focus
        await pilot.press("a", "b")
        await pilot.press("escape")
        await settle_panes(pilot)
        assert app.query_one(AlignedRows).has_focus  # the Rows view, shown, takes the keys
        await pilot.press("v")
        await settle_panes(pilot)
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
        await settle_panes(pilot)
        box = app.query_one("#inspect-input", Input)
        assert box.has_focus
        before = box.value
        await pilot.press("escape")
        await settle_panes(pilot)
        assert app.query_one("#inspect-chips").has_focus  # ←/→ now step through the tokens
        await pilot.press("c")  # copy ids: a key of the pane, not a letter typed
        await settle_panes(pilot)
        assert box.value == before


async def test_after_esc_inspects_view_keys_act_where_the_user_is() -> None:
    """i / b / t did nothing after esc until shift+tab reached the coloured text: they were keys
    of that view only. They act anywhere in the pane outside the text box now."""
    from tui.widgets.token_text import TokenText

    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f3")
        await settle_panes(pilot)
        box = app.query_one("#inspect-input", Input)
        text = box.value
        await pilot.press("escape")
        await settle_panes(pilot)
        view = app.query_one("#inspect-text", TokenText)
        assert not view.has_focus and not box.has_focus
        for key, mode in (("i", "ids"), ("b", "bytes"), ("t", "text")):
            await pilot.press(key)
            await settle_panes(pilot)
            assert view.mode == mode, key
        assert box.value == text


async def test_after_esc_compares_view_keys_show_the_text_view() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f4")
        await settle_panes(pilot)
        area = app.query_one("#compare-text", TextArea)
        text = area.text
        await pilot.press("escape")
        await settle_panes(pilot)
        await pilot.press("i")
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        from tui.widgets.token_text import TokenText

        assert pane.view == "compare-text-view" and app.query_one("#compare-colored", TokenText).mode == "ids"
        assert area.text == text


async def test_tabbing_into_a_text_box_never_lets_a_key_replace_the_text() -> None:
    """Tabbing into Inspect's box selected all of it, so the next key replaced the user's text."""
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        for tab, box_id in (("f3", "#inspect-input"), ("f4", "#compare-text")):
            await pilot.press(tab)
            await settle_panes(pilot)
            box = app.query_one(box_id)
            text = box.value if isinstance(box, Input) else box.text
            await pilot.press("escape")
            await settle_panes(pilot)
            for _ in range(30):  # tab round until the box has the keyboard again
                if box.has_focus:
                    break
                await pilot.press("shift+tab")
                await pilot.pause()
            assert box.has_focus
            await pilot.press("z")
            await settle_panes(pilot)
            now = box.value if isinstance(box, Input) else box.text
            assert len(now) == len(text) + 1 and "z" in now, (text, now)
