"""Tab switching from the keyboard: f2 / f3 / f4 show Train / Inspect / Compare, and the lazily
mounted panes appear on the first key press just as on the first click."""

from __future__ import annotations

from textual.widgets import TabbedContent

from tui.app import ExplorerApp
from tui.compare import ComparePane
from tui.inspect import InspectorPane
from tui.screens import HelpScreen

SMALL = "low lower lowest newer wider\nthe cat sat on the mat, the end.\n"


async def test_function_keys_switch_tabs_and_mount_the_lazy_panes() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        tabs = app.query_one("#tabs", TabbedContent)
        assert tabs.active == "train-tab" and not app.query(InspectorPane)

        await pilot.press("f3")
        await pilot.pause()
        assert tabs.active == "inspect-tab"
        inspector = app.query_one(InspectorPane)
        assert inspector.display and inspector.is_on_screen
        assert not app.query_one("#corpus").is_on_screen

        await pilot.press("f4")
        await pilot.pause()
        assert tabs.active == "compare-tab"
        compare = app.query_one(ComparePane)
        assert compare.is_on_screen and not inspector.is_on_screen

        await pilot.press("f2")
        await pilot.pause()
        assert tabs.active == "train-tab"
        assert app.query_one("#corpus").is_on_screen and not compare.is_on_screen

        await pilot.press("f3")  # a second visit reuses the mounted pane
        await pilot.pause()
        assert tabs.active == "inspect-tab" and len(app.query(InspectorPane)) == 1


async def test_tab_keys_are_in_the_help_screen() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        rows = dict(app.screen._rows)
        assert rows["f2"].startswith("show the Train tab")
        assert rows["f3"].startswith("show the Inspect tab")
        assert rows["f4"].startswith("show the Compare tab")


async def test_switching_tabs_puts_the_keyboard_where_you_type() -> None:
    """f4 then typing edits the Compare text; f3 then typing edits the Inspect input; f2 then n steps."""
    from textual.widgets import Input, TextArea

    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        compare_text = app.query_one("#compare-text", TextArea)
        assert app.focused is compare_text
        before = compare_text.text
        await pilot.press("x", "y")
        await pilot.pause()
        assert compare_text.text == before + "xy", "typing right after f4 continues the text"

        await pilot.press("f3")
        await pilot.pause()
        inspect_input = app.query_one("#inspect-input", Input)
        assert app.focused is inspect_input
        await pilot.press("end", "z")
        assert inspect_input.value.endswith("z")

        await pilot.press("f2")
        await pilot.pause()
        assert app.focused is app.query_one("#merges")
