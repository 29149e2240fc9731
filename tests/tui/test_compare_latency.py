"""What makes Compare and the tab keys quick, checked as behaviour (never as timings): the footer
rebuilds only when its keys change; a key repaints only the cells it changed; a state that does
not touch our row runs nothing; rows still being encoded say which text they show; and a hidden
view is filled when shown, not on every key."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest
from textual.geometry import Region
from textual.widgets import Static, TextArea

from tests.tui.pilot import CompareHost, footer_keys, hand_bpe, settle_panes
from tui.app import ExplorerApp
from tui.compare import ComparePane
from tui.compare.aligned import AlignedRows
from tui.compare.stats_table import StatsTable
from tui.textual_compat import FooterKey
from tui.train.step_log import StepLog

SMALL = "low lower lowest newer wider\nthe cat sat on the mat, the end.\n"



async def test_footer_is_rebuilt_only_when_its_keys_change() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        before = footer_keys(app)
        assert any(k.action == "app.step_next" or k.key == "n" for k in before)
        # focus moves that show the same keys (the merge list, away, back) rebuild nothing
        app.screen.set_focus(None)
        await pilot.pause()
        app.query_one("#steps").focus()
        await pilot.pause()
        await pilot.pause()
        assert footer_keys(app) == before  # the same widgets: no rebuild
        # another tab shows other keys: the footer follows
        await pilot.press("f4")
        await settle_panes(pilot)
        assert not {k.key for k in footer_keys(app)} & {"n", "b"}  # Train's stepping keys are gone
        await pilot.press("f2")
        await settle_panes(pilot)
        assert "n" in {k.key for k in footer_keys(app)}


async def test_keys_seen_before_come_back_without_building_a_key() -> None:
    """Each tab shows its own keys: switching back shows the row already built, mounting nothing."""
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        await pilot.press("f4")
        await settle_panes(pilot)
        compare_keys = footer_keys(app)
        await pilot.press("f2")
        await settle_panes(pilot)
        train_keys = footer_keys(app)
        built = len(app.query(FooterKey))
        for key, keys in (("f4", compare_keys), ("f2", train_keys), ("f4", compare_keys)):
            await pilot.press(key)
            await settle_panes(pilot)
            assert footer_keys(app) == keys  # the same widgets
        assert len(app.query(FooterKey)) == built


async def test_a_key_repaints_only_the_cells_that_changed() -> None:
    text = "the cat sat on the mat.\n" * 60 + "the end"  # a block per line, the last far below the screen
    app = CompareHost(text, ("characters", "words", "gpt2"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        aligned = app.query_one(AlignedRows)
        repaints: list[tuple[Region, ...]] = []
        real = aligned.refresh

        def spy(*regions: Region, **kwargs: Any) -> Any:
            repaints.append(regions)
            return real(*regions, **kwargs)

        aligned.refresh = spy  # type: ignore[method-assign]
        area = app.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)
        await pilot.press("x")
        await settle_panes(pilot)
        assert pane.result is not None and pane.result.comparison.text.endswith("x")
        assert repaints, "the new counts were never drawn"
        assert all(repaints), f"a whole repaint for one key: {repaints}"
        # only the row heads changed on screen (the characters row's count): no token cell repainted
        assert all(r.x + r.width <= aligned.label_width for regions in repaints for r in regions)


async def test_a_state_that_leaves_our_row_alone_runs_nothing() -> None:
    tokenizer = hand_bpe()
    app = CompareHost("the cat sat", ("ours", "characters"), tokenizer=tokenizer)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        runs = pane._generation  # noqa: SLF001 - each run takes a generation
        pane.state = replace(pane.state, merges=StepLog(), corpus="another corpus")  # e.g. a tab shown while training
        await settle_panes(pilot)
        assert pane._generation == runs  # noqa: SLF001
        pane.state = replace(pane.state, step=1)  # k follows the Train step: our row changes
        await settle_panes(pilot)
        assert pane._generation > runs and pane.k == 1  # noqa: SLF001


async def test_rows_still_encoding_say_they_are_of_the_previous_text(monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.compare.running as running_module

    real = running_module.run_comparison

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.8)
        return real(*args, **kwargs)

    text = "the cat sat on the mat. " * 110  # above the size encoded on the UI thread
    app = CompareHost(text, ("characters", "words"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        before = f"{len(text):,} code points"
        monkeypatch.setattr(running_module, "run_comparison", slow)
        area = app.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)
        await pilot.press("x")
        await pilot.pause(0.4)
        status = str(app.query_one("#compare-status", Static).render())
        assert "before the last change" in status and before in status
        await settle_panes(pilot)
        status = str(app.query_one("#compare-status", Static).render())
        assert "before the last change" not in status and f"{len(text) + 1:,} code points" in status


async def test_hidden_views_are_filled_when_shown_not_on_every_key() -> None:
    app = CompareHost("the cat sat", ("characters", "words"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        table = app.query_one(StatsTable)
        fills: list[int] = []
        real = table.show

        def counting(*args: Any, **kwargs: Any) -> None:
            fills.append(1)
            real(*args, **kwargs)

        table.show = counting  # type: ignore[method-assign]
        area = app.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)
        await pilot.press("x", "y", "z")
        await settle_panes(pilot)
        assert fills == [] and pane.view == "compare-aligned"  # the Stats view is hidden: no work
        pane.show_view("compare-rows")
        await settle_panes(pilot)
        assert fills == [1]
        assert str(table.get_row_at(0)[1]) == "14"  # characters of "the cat satxyz"

async def test_a_run_that_fails_says_so_and_the_next_one_clears_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A comparison that raises (a bug) is named in the status, never swallowed: silently kept counts
    would look like keys that never registered."""
    import tui.compare.running as running_module

    real = running_module.run_comparison

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom \x1b[2J")

    text = "the cat sat on the mat. " * 110  # above the size encoded on the UI thread
    app = CompareHost(text, ("characters", "words"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        monkeypatch.setattr(running_module, "run_comparison", broken)
        area = app.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)
        await pilot.press("x")
        await settle_panes(pilot)
        status = str(app.query_one("#compare-status", Static).render())
        assert "comparing failed (RuntimeError: boom ␛[2J)" in status and "earlier text" in status
        monkeypatch.setattr(running_module, "run_comparison", real)
        await pilot.press("y")
        await settle_panes(pilot)
        status = str(app.query_one("#compare-status", Static).render())
        assert "failed" not in status and f"{len(text) + 2:,} code points" in status


async def test_showing_a_tab_again_at_the_same_size_rewraps_and_reruns_nothing() -> None:
    """Textual sends every widget shown again a Resize; the text boxes and Compare's rows only
    redo their wrapping when the width really changed (a resize of the terminal still does)."""
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        await pilot.press("f4")
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        areas = [app.query_one("#corpus-text", TextArea), app.query_one("#compare-text", TextArea)]
        wraps: list[str] = []
        for area in areas:
            real = area.wrapped_document.wrap

            def counting(*args: Any, real: Any = real, name: str = str(area.id), **kwargs: Any) -> None:
                wraps.append(name)
                real(*args, **kwargs)

            area.wrapped_document.wrap = counting  # type: ignore[method-assign]
        runs = pane._generation  # noqa: SLF001 - each run takes a generation
        for key in ("f2", "f4", "f2", "f4"):
            await pilot.press(key)
            await settle_panes(pilot)
        assert wraps == [] and pane._generation == runs  # noqa: SLF001
        await pilot.resize_terminal(100, 40)
        await settle_panes(pilot)
        assert "compare-text" in wraps and pane._generation > runs  # noqa: SLF001


async def test_a_tab_switch_never_repaints_the_whole_screen() -> None:
    """Focus moves twice per switch; each used to redraw every cell (a full frame written)."""
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        await pilot.press("f4")
        await settle_panes(pilot)
        screen = app.screen
        whole: list[bool] = []
        real = screen.refresh

        def spy(*regions: Any, repaint: bool = True, **kwargs: Any) -> Any:
            whole.append(repaint and not regions)
            return real(*regions, repaint=repaint, **kwargs)

        screen.refresh = spy  # type: ignore[method-assign]
        for key in ("f2", "f3", "f4", "f2"):
            await pilot.press(key)
            await settle_panes(pilot)
        assert app.query_one("#steps").has_focus  # the switches happened, focus followed
        assert not any(whole)
