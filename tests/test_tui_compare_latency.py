"""What makes Compare and the tab keys quick, checked as behaviour (never as timings):
the footer rebuilds only when its keys change."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from tui.app import ExplorerApp
from explore_pilot import settle

SMALL = "low lower lowest newer wider\nthe cat sat on the mat, the end.\n"


def footer_keys(app: ExplorerApp) -> list[FooterKey]:
    return list(app.query(FooterKey))


async def test_footer_is_rebuilt_only_when_its_keys_change() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        before = footer_keys(app)
        assert any(k.action == "app.step_next" or k.key == "n" for k in before)
        # focus moves that show the same keys (the merge list, away, back) rebuild nothing
        app.screen.set_focus(None)
        await pilot.pause()
        app.query_one("#merges").focus()
        await pilot.pause()
        await pilot.pause()
        assert footer_keys(app) == before  # the same widgets: no rebuild
        # another tab shows other keys: the footer follows
        await pilot.press("f4")
        await settle(pilot)
        assert not {k.key for k in footer_keys(app)} & {"n", "b"}  # Train's stepping keys are gone
        await pilot.press("f2")
        await settle(pilot)
        assert "n" in {k.key for k in footer_keys(app)}
