"""The command palette (ctrl+p) is a field like any other: what is typed or pasted into its search
box is kept exactly and painted in the safe visible form (it painted raw C1 controls, bidi
overrides and isolates, ZWJ and DEL -- the one field the visible-text layer did not cover)."""

from __future__ import annotations

from textual import events
from textual.command import CommandInput, CommandPalette

from tests.hostile_text import raw_hazards
from tui.app import ExplorerApp
from tui.widgets.safe_text import FIELD_CAPACITY

PASTED = "a\x9b31m\u202eb\x9d0;T\x9c\u2066c\u200dd\x7fe"


async def test_the_palette_paints_a_hostile_search_visibly_and_keeps_it() -> None:
    app = ExplorerApp("corpus\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        box = app.screen.query_one(CommandInput)
        box.post_message(events.Paste(PASTED))
        await pilot.pause()
        assert box.value == PASTED
        painted = box.render_line(0).text
        assert raw_hazards(painted) == [] and painted.startswith("a¤31m¦b¤0;T¤¦c¦d␡e")


async def test_a_long_paste_into_the_palette_keeps_what_the_box_holds() -> None:
    app = ExplorerApp("corpus\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        box = app.screen.query_one(CommandInput)
        box.post_message(events.Paste("train " * 1_000_000))
        await pilot.pause()
        assert len(box.value) == FIELD_CAPACITY
