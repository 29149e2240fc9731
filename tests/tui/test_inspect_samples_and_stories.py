"""Inspect and Compare on a Unigram run and on any merge model: the word's other cuts under
regularization (``r`` changes the strength), a Unigram piece's life in the run, the model of the
Train step, and what the "ours" row says while there is none."""

from __future__ import annotations

import threading
from typing import Any

from textual.widgets import Static

from tests.tui.pilot import InspectorHost, make_app, runner, set_input, set_select, settle, settle_panes, shown, train_to_end
from tui.inspect.chips import TokenChips
from tui.inspect.pane import InspectorPane
from tui.models import sources

CORPUS = ("hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5 + "\n") * 3


def why_shown(app: Any) -> str:
    return str(app.query_one("#inspect-tree", Static).render())


async def test_the_words_bpe_dropout_cuts_are_shown_and_r_changes_p() -> None:
    app = InspectorHost("the unbelievable")
    async with app.run_test(size=(150, 40)) as pilot:
        await settle_panes(pilot)
        app.query_one(TokenChips).action_select_token(1)
        await settle_panes(pilot)
        why = why_shown(app)
        assert "BPE-dropout (p = 0.1" in why and "' unbelievable'" in why and "← unregularized" in why
        app.query_one(TokenChips).focus()
        await pilot.press("r")
        await settle_panes(pilot)
        assert "BPE-dropout (p = 0.2" in why_shown(app)


async def test_the_merge_tree_shows_before_the_sampled_cuts_are_drawn(monkeypatch: Any) -> None:
    """Drawing a word's cuts needs the tokenizer's rank table once (~0.5 s CPU for gpt2); with the
    UI thread busy restyling a tab, the first "why" stood at "…" for seconds (10 s in a pty with
    both cores busy). The tree comes first, the cuts when they are drawn."""
    import tui.inspect.pane as pane_module

    drawing, release = threading.Event(), threading.Event()
    real = pane_module.with_samples

    def slow_samples(*args: Any, **kwargs: Any) -> Any:
        drawing.set()
        release.wait(10)  # the cuts are still being drawn
        return real(*args, **kwargs)

    monkeypatch.setattr(pane_module, "with_samples", slow_samples)
    app = InspectorHost("the unbelievable")
    async with app.run_test(size=(150, 40)) as pilot:
        await pilot.pause(0.3)
        app.query_one(TokenChips).action_select_token(1)
        for _ in range(100):
            await pilot.pause(0.02)
            if drawing.is_set() and "merge" in why_shown(app):
                break
        why = why_shown(app)
        assert drawing.is_set() and "merge" in why and "BPE-dropout" not in why, why  # the tree, no cuts yet
        release.set()
        await settle_panes(pilot)
        assert "BPE-dropout (p = 0.1" in why_shown(app)


async def test_inspect_follows_a_unigram_runs_step_and_tells_each_pieces_story() -> None:
    app = make_app(CORPUS)
    async with app.run_test(size=(140, 44)) as pilot:
        await set_select(pilot, app, "#model", "unigram")
        await set_input(pilot, app, "#vocab", "12")
        await train_to_end(app, pilot)
        total = len(app.train_pane.step_log)
        await pilot.press("G")
        await settle(app, pilot)
        await pilot.press("f3")
        await settle(app, pilot)
        inspector = app.query_one(InspectorPane)
        inspector.inspect("hugs pun", sources.OURS)
        await settle(app, pilot)
        assert f"k={total:,} of {total:,}" in shown(app, "#inspect-status")
        inspector.query_one(TokenChips).action_select_token(0)
        await settle(app, pilot)
        why = why_shown(app)
        assert "this piece in training" in why and "entered at step" in why and "Unigram sampling (alpha" in why

        await pilot.press("f2", "g")
        await settle(app, pilot)
        await pilot.press("f3")
        await settle(app, pilot)
        assert "no model before the seeds" in shown(app, "#inspect-status")
        await pilot.press("f2", "n", "n")
        await settle(app, pilot)
        await pilot.press("f3")
        await settle(app, pilot)
        status = shown(app, "#inspect-status")
        assert f"k=2 of {total:,}" in status, status
        seeds_model = app.train_pane.state.tokenizer_at(2)
        assert inspector.result is not None and inspector.result.tokenizer is seeds_model


async def test_compare_says_training_while_a_run_goes_and_what_to_do_before_one() -> None:
    app = make_app(CORPUS, runner=runner(throttle=0.5))  # 11 merges: over 5 s
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.press("f4")
        await settle(app, pilot)
        assert shown(app, "#compare-k-label") == "k: nothing trained (ctrl+t)"
        await pilot.press("ctrl+t")
        await pilot.pause(0.3)
        await pilot.press("f4")
        await pilot.pause(0.5)
        assert shown(app, "#compare-k-label") == "k: training…"
        from tui.compare.aligned import AlignedRows

        rows = "\n".join(app.query_one(AlignedRows).lines_text())
        assert "training… the model appears here when the run finishes" in rows, rows
        await pilot.press("escape")
        await settle(app, pilot)
