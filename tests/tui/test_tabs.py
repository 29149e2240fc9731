"""Tab switching from the keyboard: f2 / f3 / f4 show Train / Inspect / Compare, and the lazily
mounted panes appear on the first key press just as on the first click. The tabs agree: Inspect
and Compare say which Train step they use, and start with the one special-token default."""

from __future__ import annotations

from textual.widgets import Select, TabbedContent

from tests.tui.pilot import SMALL, set_input, settle, shown, train_to_end
from tui.app import ExplorerApp
from tui.compare import ComparePane
from tui.help_screen import HelpScreen
from tui.inspect import InspectorPane

TWO_LINES = "low lower lowest newer wider\nthe cat sat on the mat, the end.\n"


async def test_function_keys_switch_tabs_and_mount_the_lazy_panes() -> None:
    app = ExplorerApp(TWO_LINES)
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
    app = ExplorerApp(TWO_LINES)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        rows = dict(app.screen.rows)
        assert rows["f2"].startswith("show the Train tab")
        assert rows["f3"].startswith("show the Inspect tab")
        assert rows["f4"].startswith("show the Compare tab")


async def test_switching_tabs_puts_the_keyboard_where_you_type() -> None:
    """f4 then typing edits the Compare text; f3 then typing edits the Inspect input; f2 then n steps."""
    from textual.widgets import Input, TextArea

    app = ExplorerApp(TWO_LINES)
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
        assert app.focused is app.query_one("#steps")


async def test_the_help_lists_the_keys_of_the_tab_on_screen() -> None:
    """The help once listed only the app's bindings: Compare's a/v/B/x/[/]/f and Inspect's m were
    nowhere in it."""
    app = ExplorerApp(TWO_LINES)
    async with app.run_test(size=(120, 40)) as pilot:
        expected = {
            "f2": {"Train · the step list": {"↑", "pgdn"}},
            "f3": {"Inspect": {"m", "c"}, "Inspect · the token chips": {"home"}, "Inspect · the coloured text": {"b", "i"}},
            "f4": {"Compare": {"a", "v", "B", "del / x", "shift+↑ / K", "[", "]", "f"}, "Compare · the k slider": {"shift+←"}},
        }
        for key, sections in expected.items():
            await pilot.press(key)
            await pilot.pause(0.5)
            await pilot.press("f1")
            await pilot.pause()
            shown = {title: {k for k, _ in rows} for title, rows in app.screen.sections}
            for title, keys in sections.items():
                assert keys <= shown.get(title, set()), (key, title, shown)
            others = {"Train", "Inspect", "Compare"} - {title.split(" ·")[0] for title in sections}
            assert not any(title.split(" ·")[0] in others for title in shown), (key, list(shown))
            await pilot.press("escape")
            await pilot.pause()


async def test_the_help_scrolls_to_its_last_line_on_a_small_terminal() -> None:
    """At 80x24 the help was cut after "+ / =": the list did not fit and did not scroll."""
    app = ExplorerApp(TWO_LINES)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        await pilot.pause(0.5)
        await pilot.press("f1")
        await pilot.pause()
        box = app.screen.query_one("#help-box")
        keys = app.screen.query_one("#help-keys")
        assert box.region.bottom <= 24 and keys.region.bottom <= box.region.bottom
        assert keys.max_scroll_y > 0
        await pilot.press("end")
        await pilot.pause()
        assert keys.scroll_y == keys.max_scroll_y
        await pilot.press("home", "pagedown")
        await pilot.pause()
        assert 0 < keys.scroll_y


async def test_inspects_buttons_all_show_at_80_columns() -> None:
    """At 80x24 the last button read "Cop": the row was 87 cells wide."""
    from textual.widgets import Button

    app = ExplorerApp(TWO_LINES)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        await pilot.pause(1.0)
        buttons = list(app.query("InspectorPane Button").results(Button))
        assert len(buttons) == 4
        assert all(b.region.right <= 80 and b.region.width >= len(str(b.label)) for b in buttons), [b.region for b in buttons]


async def test_inspect_and_compare_say_which_train_step_they_use() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(140, 40)) as pilot:
        await set_input(pilot, app, "#vocab", "290")
        await train_to_end(app, pilot)
        app.train_pane.seek(7)
        await pilot.press("f4")
        await settle(app, pilot)
        label = str(app.query_one("#compare-k-label").render())
        assert "k = 7 / 34" in label and "follows Train step" in label
        app.query_one(ComparePane).set_k(3)
        await pilot.pause()
        assert "fixed" in str(app.query_one("#compare-k-label").render())
        await pilot.press("f3")
        await settle(app, pilot)
        app.query_one("#inspect-tokenizer", Select).value = "ours"
        await settle(app, pilot)
        assert "k=7 of 34 (follows the Train step)" in shown(app, "#inspect-status")


async def test_inspect_and_compare_start_with_the_one_special_token_default() -> None:
    from bpe_engine.types import DEFAULT_SPECIAL_MODE

    app = ExplorerApp(SMALL)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        assert app.query_one("#inspect-special", Select).value == DEFAULT_SPECIAL_MODE == "text"
        await pilot.press("f4")
        await pilot.pause()
        assert app.query_one("#compare-special", Select).value == DEFAULT_SPECIAL_MODE
