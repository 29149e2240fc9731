"""The vocabulary audit in the app: opened from the command palette over Inspect's tokenizer, its
categories and unreachable tokens shown, a token picked goes back to Inspect."""

from __future__ import annotations

from typing import Any

from textual.widgets import DataTable, Input

from tests.tui.pilot import make_app, settle_panes
from tui.audit import AuditScreen
from tui.commands import open_audit
from tui.inspect.pane import InspectorPane


async def inspect_with(pilot: Any, spec: str) -> InspectorPane:
    await pilot.press("f3")
    pane = pilot.app.query_one(InspectorPane)
    pane.use_tokenizer(spec)
    await settle_panes(pilot)
    assert pane.result is not None and pane.result.spec == spec
    return pane


async def test_palette_audits_o200k_and_a_picked_token_is_inspected() -> None:
    app = make_app()
    async with app.run_test(size=(140, 44)) as pilot:
        pane = await inspect_with(pilot, "o200k_base")
        await pilot.press("ctrl+p")
        await pilot.pause()
        for key in "Audit vocab":
            await pilot.press(key if key != " " else "space")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle_panes(pilot)
        screen = app.screen
        assert isinstance(screen, AuditScreen) and screen.audit is not None
        assert screen.audit.counts["unreachable_multi"] == 12
        counts = screen.query_one("#audit-counts", DataTable)
        assert counts.row_count == 7
        tokens = screen.query_one("#audit-tokens", DataTable)
        assert tokens.row_count == 12  # unreachable_multi is shown first
        row = tokens.get_row("3914")
        assert row[1] == "'\\n//'" and "the pre-tokenizer cuts its text into" in row[3]
        assert "made inside" in tokens.get_row("193819")[3]
        tokens.focus()
        tokens.move_cursor(row=tokens.get_row_index("193819"))
        await pilot.press("enter")
        await settle_panes(pilot)
        assert not isinstance(app.screen, AuditScreen)
        assert app.query_one("#inspect-input", Input).value == "亚洲AV"
        assert pane.result is not None and pane.result.spec == "o200k_base"
        assert pane.result.encoding is not None and list(pane.result.encoding.ids) == [6199, 5345]  # its text alone: 亚洲 + AV


async def test_choosing_a_category_lists_its_tokens_and_esc_closes() -> None:
    app = make_app()
    async with app.run_test(size=(140, 44)) as pilot:
        await inspect_with(pilot, "gpt2")
        open_audit(app)
        await settle_panes(pilot)
        screen = app.screen
        assert isinstance(screen, AuditScreen) and screen.audit is not None
        tokens = screen.query_one("#audit-tokens", DataTable)
        assert tokens.row_count == 1000  # gpt2 has nothing unreachable: the ok ones, the first 1,000
        counts = screen.query_one("#audit-counts", DataTable)
        counts.focus()
        counts.move_cursor(row=counts.get_row_index("utf8_fragment"))
        await pilot.pause()
        assert tokens.row_count == 216  # the Magikarp figure
        counts.move_cursor(row=counts.get_row_index("special"))
        await pilot.pause()
        assert tokens.row_count == 1 and tokens.get_row("50256")[1] == "'<|endoftext|>'"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, AuditScreen)
