"""Stepping through the merges: the stepping keys work anywhere in Train except inside a text field,
play keeps its speed, and on a small terminal stepping brings the merges forward."""

from __future__ import annotations

import time

from textual.widgets import Input, Select

from tests.tui.pilot import SMALL, set_input, settle, train_to_end
from tui.app import ExplorerApp


async def test_stepping_keys_work_anywhere_but_in_a_text_field() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "290")
        app.query_one("#model", Select).focus()  # where ctrl+t from the form leaves the focus
        await pilot.press("ctrl+t")
        await settle(app, pilot)
        await pilot.press("n", "n")
        assert app.train_pane.current_step == 2
        app.query_one("#vocab", Input).focus()
        await pilot.press("n", "b")  # text for the field, not steps
        assert app.train_pane.current_step == 2
        await pilot.press("f3", "f2")
        await pilot.press("G")
        assert app.train_pane.current_step == app.train_pane.stepper.available


async def test_play_keeps_its_speed(alice_text: str) -> None:
    app = ExplorerApp(alice_text[:20000])
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "900")
        await train_to_end(app, pilot)
        assert app.train_pane.stepper.available > 300
        app.train_pane.seek(0)
        app.train_pane.stepping.speed = 6  # 100 merges/s
        app.train_pane.action_play()
        start = time.monotonic()
        await pilot.pause(1.0)
        app.train_pane.pause()
        elapsed = time.monotonic() - start
        assert app.train_pane.current_step >= 0.5 * 100 * elapsed, f"{app.train_pane.current_step} merges in {elapsed:.2f} s at 100/s"


async def test_a_small_terminal_shows_one_view_and_stepping_brings_the_merges() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(80, 24)) as pilot:
        await set_input(pilot, app, "#vocab", "290")
        await train_to_end(app, pilot)
        assert app.query_one("#corpus").is_on_screen and not app.query_one("#segmented").is_on_screen
        await pilot.press("n")
        await pilot.pause()
        assert app.query_one("#segmented").is_on_screen and app.query_one("#steps").is_on_screen
        assert app.query_one("#steps").size.height >= 6, "more than one merge row at 80x24"
        await pilot.press("f5")
        await pilot.pause()
        assert app.query_one("#detail").is_on_screen and not app.query_one("#steps").is_on_screen
        await pilot.press("f3")
        await pilot.pause()
        assert app.query_one("#inspect-input").size.width >= 60, "the Inspect text box gets the width"
