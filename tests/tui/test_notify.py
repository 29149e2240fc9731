"""Notifications carry user text (file names, notes, errors): markup in them stays literal, and
the app's own notes carry none. Checked on the toast the screen shows, not on the stored string."""

from __future__ import annotations

from tests.tui.pilot import drawn_toasts
from tui.app import ExplorerApp


async def test_markup_in_a_notification_is_shown_literally(tmp_path) -> None:
    app = ExplorerApp("low lower\n")
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        missing = tmp_path / "[red]x[/red].txt"
        app.files._read(str(missing))  # the open-file action, given a path that does not exist
        await pilot.pause()
        await pilot.pause()
        # the toast on screen draws the brackets themselves, not red text
        assert any("[red]x[/red].txt" in text for text in drawn_toasts(app)), drawn_toasts(app)


async def test_ctrl_c_says_which_key_quits_without_markup() -> None:
    """ctrl+c outside a text field: the toast read "Press [b]ctrl+q[/b] to quit the app"."""
    app = ExplorerApp("low lower\n")
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        app.screen.set_focus(None)
        await pilot.press("ctrl+c")
        await pilot.pause()
        await pilot.pause()
        texts = drawn_toasts(app)
        assert any("Press ctrl+q to quit the app" in text for text in texts), texts
        assert not any("[b]" in text for text in texts)
