"""A tab key is one frame: the new tab, its focus and its footer keys are laid out together on the
next screen update, and nothing shown again at its old size is drawn a second time.

Checked as behaviour, never as timings: the screen's layouts and paints are counted in order. Left
to Textual, an f2 painted the tab row first, laid the new tab out once its panes' Layout messages
had reached the screen, and laid it out again for the footer's keys (~30 ms of an f2 at 120x40
in a real terminal); the merge list then redrew its rows for a Resize to the size it already had.
"""

from __future__ import annotations

from typing import Any

from textual import constants
from textual.widgets import ContentSwitcher, ProgressBar, TabbedContent, TabPane

from tests.tui.pilot import settle_panes
from tui.app import ExplorerApp
from tui.train.progress_panel import ProgressPanel
from tui.train.step_table import StepTable
from tui.widgets.keys_footer import KeysFooter

SMALL = "low lower lowest newer wider\nthe cat sat on the mat, the end.\n"


def record_frames(app: ExplorerApp) -> list[tuple[str, str, str, int]]:
    """Spy on the screen: each layout and each paint outside one, with the tab shown, the
    footer's keys and, for a paint, how many cells it redraws."""
    screen = app.screen
    frames: list[tuple[str, str, str, int]] = []
    footer = app.query_one(KeysFooter)
    tabs = app.query_one("#tabs", TabbedContent)
    real_layout, real_paint = screen._refresh_layout, screen._compositor_refresh  # noqa: SLF001
    inside = [False]

    def layout(*args: Any, **kwargs: Any) -> Any:
        frames.append(("layout", tabs.active, repr(footer._drawn), 0))  # noqa: SLF001
        inside[0] = True
        try:
            return real_layout(*args, **kwargs)
        finally:
            inside[0] = False

    def paint() -> Any:
        if not inside[0]:
            cells = sum(region.area for region in screen._compositor._dirty_regions)  # noqa: SLF001
            frames.append(("paint", tabs.active, repr(footer._drawn), cells))  # noqa: SLF001
        return real_paint()

    screen._refresh_layout = layout  # type: ignore[method-assign]  # noqa: SLF001
    screen._compositor_refresh = paint  # type: ignore[method-assign]  # noqa: SLF001
    return frames


async def visit_every_tab(pilot: Any) -> None:
    """Mount the lazy panes and build each tab's footer keys once, ending on Train."""
    for key in ("f3", "f4", "f2"):
        await pilot.press(key)
        await settle_panes(pilot)


async def test_a_tab_key_lays_out_the_new_tab_with_its_keys_in_one_frame() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        await visit_every_tab(pilot)
        frames = record_frames(app)
        footer = app.query_one(KeysFooter)
        for key, tab in (("f3", "inspect-tab"), ("f2", "train-tab"), ("f4", "compare-tab"), ("f2", "train-tab")):
            frames.clear()
            await pilot.press(key)
            await settle_panes(pilot)
            keys = repr(footer._drawn)  # noqa: SLF001 - the keys the footer settled on
            layouts = [frame for frame in frames if frame[0] == "layout"]
            assert frames and frames[0][0] == "layout", f"{key}: painted before laying out the tab: {frames}"
            assert len(layouts) == 1, f"{key}: {len(layouts)} layouts"
            assert layouts[0][1:3] == (tab, keys), f"{key}: the first layout lacked the tab or its keys"
            # after it only small things move (the focused widget taking its Focus event); containers restyled by the focus move are drawn in the layout's
            # frame, not in a second one of most of the screen (9,616 of 4,800 cells' worth before)
            assert max(frame[3] for frame in frames) < 120 * 40 // 4, f"{key}: a second big frame: {frames}"


async def test_the_merge_list_shown_again_at_its_size_draws_nothing_again() -> None:
    """Textual sends a Resize to every widget shown again; the merge list only lays its rows out
    again when its size really changed (a resize of the terminal still does)."""
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+t")
        await settle_panes(pilot)
        merges = app.query_one(StepTable)
        assert merges.row_count > 1
        calls: list[int] = []
        real = merges._resize  # noqa: SLF001

        def counting() -> None:
            calls.append(1)
            real()

        merges._resize = counting  # type: ignore[method-assign]  # noqa: SLF001
        for key in ("f3", "f2", "f4", "f2"):
            await pilot.press(key)
            await settle_panes(pilot)
        assert calls == []
        await pilot.resize_terminal(112, 40)
        await settle_panes(pilot)
        assert calls, "a new width must lay the rows out again"


async def test_the_merge_list_shown_again_draws_no_row_anew() -> None:
    """Showing Train gives the merge list focus, which restyles it (a tint, the cursor's colours):
    its rows are kept under the styles they were drawn in, so a switch back draws none of them
    again (each row is ~0.5 ms of Rich text; ~6 ms of the frame at 120x40 before)."""
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+t")
        await settle_panes(pilot)
        for key in ("f3", "f2"):  # both looks of the rows drawn once
            await pilot.press(key)
            await settle_panes(pilot)
        merges = app.query_one(StepTable)
        drawn: list[int] = []
        real = merges._line  # noqa: SLF001

        def counting(*args: Any, **kwargs: Any) -> Any:
            drawn.append(1)
            return real(*args, **kwargs)

        merges._line = counting  # type: ignore[method-assign]  # noqa: SLF001
        for key in ("f3", "f2", "f4", "f2"):
            await pilot.press(key)
            await settle_panes(pilot)
        assert app.screen.focused is merges
        assert drawn == [], f"{len(drawn)} rows drawn again"
        await pilot.press("n")
        await settle_panes(pilot)
        assert drawn, "a step moves the cursor: its rows are drawn in the cursor's style"


async def test_a_tab_key_is_followed_by_no_train_of_frames() -> None:
    """Textual slides the tab underline for 0.3 s: ~19 more paints after each tab key, drawn while
    the next key may be waiting. The app turns Textual's animations off unless the user sets
    TEXTUAL_ANIMATIONS."""
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+t")
        await settle_panes(pilot)
        await visit_every_tab(pilot)
        frames = record_frames(app)
        for key in ("f3", "f2", "f4", "f2"):
            frames.clear()
            await pilot.press(key)
            await pilot.pause(0.4)  # longer than the slide
            assert len(frames) <= 4, f"{key}: {len(frames)} frames: {frames}"


def test_the_users_animation_setting_is_kept(monkeypatch: Any) -> None:
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "basic")
    monkeypatch.setattr(constants, "TEXTUAL_ANIMATIONS", "basic")
    assert ExplorerApp(SMALL).animation_level == "basic"


async def test_the_progress_bar_is_empty_while_nothing_is_counted() -> None:
    """Textual's indeterminate bar is drawn full once animations are off: counting words or a failed
    run must not look like a finished one."""
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        panel = app.query_one(ProgressPanel)
        bar = app.query_one("#progress-bar", ProgressBar)
        for show in (panel.show_counting, lambda: panel.show_failed("boom"), panel.show_idle):
            show()
            await pilot.pause()
            assert (bar.total, bar.progress) == (1, 0)


async def test_the_containers_that_only_hold_the_tabs_draw_nothing() -> None:
    """TabbedContent, its ContentSwitcher and the TabPanes fill the screen with nothing of their
    own: each switch redrew their ~36 blank lines (a third of an f3's paint at 120x40). They are
    left out of the paint (``visibility: hidden``, their children visible again); the panes must
    still be drawn, reached by tab and by the mouse."""
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+t")
        await settle_panes(pilot)
        await visit_every_tab(pilot)
        drawn: list[str] = []
        tabs = app.query_one("#tabs", TabbedContent)
        holders = [tabs, tabs.query_one(ContentSwitcher), *tabs.query(TabPane)]
        merges = app.query_one(StepTable)
        for widget in [*holders, merges]:
            real = widget.render_lines

            def counting(crop: Any, real: Any = real, name: str = type(widget).__name__) -> Any:
                drawn.append(name)
                return real(crop)

            widget.render_lines = counting  # type: ignore[method-assign]
        for key in ("f3", "f2", "f4", "f2"):
            await pilot.press(key)
            await settle_panes(pilot)
        assert "StepTable" in drawn, "the tab's own widgets are drawn"
        assert [name for name in drawn if name != "StepTable"] == []
        assert app.screen.get_widget_at(*merges.region.center)[0] is merges
        assert app.screen.focused is merges
        train = tabs.query_one("#train-tab", TabPane)
        reachable = [widget for widget in app.screen.focus_chain if train in widget.ancestors]
        assert merges in reachable and len(reachable) > 3, f"tab reaches {reachable}"
        await pilot.press("shift+tab")
        assert app.screen.focused in reachable and app.screen.focused is not merges
