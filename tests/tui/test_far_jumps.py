"""A far jump (G, g, j, a click in the merge list) keeps the app answering.

On a 10 MB corpus, G to the last of 7,744 merges froze the screen and the keys for ~0.7 s (seconds
on 50 MB): f3 pressed during it came after 660-840 ms in a pty. The jump now moves in slices with
the keys and a frame between them (f3 during G: ~85 ms), n / b count from where it is headed, and
back to step 0 is one move. Here every slice is one merge, so every jump is a far one."""

from __future__ import annotations

import pytest
from textual.widgets import TabbedContent

from tests.tui.pilot import set_input, settle, train_to_end, until
from tui.app import ExplorerApp
from tui.train import stepping as stepping_actions


async def test_keys_pressed_during_a_far_jump_are_obeyed(alice_text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stepping_actions, "SEEK_SLICE", 0.0)  # one merge a slice
    app = ExplorerApp(alice_text[:20000])
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "700")
        await train_to_end(app, pilot)
        stepper = app.train_pane.stepper
        assert stepper is not None
        end = stepper.available
        assert end > 300
        await pilot.press("f3")  # Inspect is mounted on its first showing: not during the jump
        await settle(app, pilot)
        await pilot.press("f2")

        await pilot.press("g")
        assert stepper.step == 0 and app.train_pane.current_step == 0  # back to the start: one move
        monkeypatch.setattr(stepping_actions, "SEEK_PAUSE", 0.02)  # a long jump (~10 s), for the keys below
        await pilot.press("G")
        assert 0 < stepper.step < end  # on its way, and the key has come back
        await pilot.press("f3")  # a tab key during the jump is obeyed at once
        assert app.query_one("#tabs", TabbedContent).active == "inspect-tab"
        assert stepper.step < end
        await pilot.press("f2", "b")  # b counts from where the jump is headed
        assert stepper.step < end - 1
        monkeypatch.setattr(stepping_actions, "SEEK_PAUSE", 0.001)
        await until(pilot, lambda: app.train_pane.current_step == end - 1)
        await settle(app, pilot)
        assert stepper.step == end - 1 and app.train_pane.current_step == end - 1

        await pilot.press("g", "G", "g")  # a newer jump replaces one still going
        await until(pilot, lambda: stepper.step == 0)
        await settle(app, pilot)
        assert app.train_pane.current_step == 0

        seen: list[int] = []
        monkeypatch.setattr(stepping_actions, "SEEK_SHOW_EVERY", 0.0)
        app.watch(app.train_pane, "current_step", lambda step: seen.append(step), init=False)
        await pilot.press("G")
        await until(pilot, lambda: app.train_pane.current_step == end)
        assert len(seen) > 2 and seen == sorted(seen), seen  # where it had got to was drawn on the way
