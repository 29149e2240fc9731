"""Notifications carry user text (file names, notes, errors): markup in them stays literal."""

from __future__ import annotations

from textual.widgets._toast import Toast

from tui.app import ExplorerApp


async def test_markup_in_a_notification_is_shown_literally(tmp_path) -> None:
    app = ExplorerApp("low lower\n")
    async with app.run_test(size=(120, 36)) as pilot:
        missing = tmp_path / "[red]x[/red].txt"
        app.files._read(str(missing))  # the open-file action, given a path that does not exist
        await pilot.pause()
        notification = list(app._notifications)[-1]
        assert "[red]x[/red].txt" in notification.message
        # What the toast would draw: the brackets themselves, not red text.
        drawn = str(Toast(notification).render())
        assert "[red]x[/red].txt" in drawn
