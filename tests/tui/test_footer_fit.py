"""The footer's keys are whole: a row wider than the footer drops keys from its end instead of
cutting a label at the edge (at 120 columns Inspect's row ended "f2 f3 f4 Ta", Compare's Text
view "f1 Hel"); a wider terminal gets them back."""

from __future__ import annotations

from typing import Any

from tests.tui.pilot import footer_keys, settle_panes
from tui.app import ExplorerApp
from tui.widgets.keys_footer import KeysFooter


def assert_whole(app: Any) -> None:
    """Every key, group and group label shown ends before the command palette's key."""
    footer = app.query_one(KeysFooter)
    page = footer._pages[footer._drawn]  # noqa: SLF001 - the row on screen
    shown = [item for item in page.children if item.display and item.region.width]
    palette = next(item for item in shown if item.has_class("-command-palette"))
    for item in shown:
        if item is not palette:
            what = getattr(item, "key", None) or type(item).__name__
            assert item.region.right <= palette.region.x, f"{what} ends at {item.region.right}, past {palette.region.x}"
    assert palette.region.right <= footer.region.right


async def test_inspects_keys_after_esc_are_whole_and_come_back_when_there_is_room() -> None:
    app = ExplorerApp("low lower\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f3")
        await settle_panes(pilot)
        await pilot.press("escape")
        await settle_panes(pilot)
        assert_whole(app)
        narrow = {k.key for k in footer_keys(app, shown_only=True)}
        await pilot.resize_terminal(220, 40)
        await settle_panes(pilot)
        assert_whole(app)
        assert {k.key for k in footer_keys(app, shown_only=True)} > narrow  # the dropped keys are back
        await pilot.resize_terminal(80, 24)
        await settle_panes(pilot)
        assert_whole(app)
