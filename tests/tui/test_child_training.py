"""Training in a child process from inside the running app: WordPiece trains there and steps like
BPE, and quitting mid-run leaves no process behind."""

from __future__ import annotations

import asyncio
import os

from textual.widgets import Select

from tests.tui.pilot import runner, set_input, shown
from tui.app import ExplorerApp


def live_children() -> list[int]:
    """Training children of this process still alive or unreaped (other tests' helpers don't count)."""
    me = os.getpid()
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    mine = int(f.read().rsplit(")", 1)[1].split()[1]) == me
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    training = b"training.runner.child" in f.read()
            except OSError:
                continue
            if mine and training:
                out.append(int(entry))
    return out


async def test_wordpiece_trains_in_a_child_process_inside_the_app(alice_text: str) -> None:
    app = ExplorerApp(alice_text[:40000], runner=runner(backend="child"))
    async with app.run_test(size=(120, 36)) as pilot:
        app.query_one("#model", Select).value = "wordpiece"
        await set_input(pilot, app, "#vocab", "1200")
        await pilot.press("ctrl+t")
        for _ in range(600):
            if not app.train_pane.training:
                break
            await asyncio.sleep(0.05)
        assert "done:" in shown(app, "#progress-status"), shown(app, "#progress-status")
        assert app.train_pane.tokenizer is not None and app.train_pane.stepper is not None and app.train_pane.stepper.available > 0
        await pilot.press("G", "b")
        assert app.train_pane.current_step == app.train_pane.stepper.available - 1
    assert not live_children()


async def test_quitting_mid_run_leaves_no_training_process_behind(alice_text: str) -> None:
    app = ExplorerApp(alice_text, runner=runner(backend="child", throttle=0.003))
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "20000")
        app.action_train()
        while app.train_pane.stepper is None or app.train_pane.stepper.available < 5:
            await asyncio.sleep(0.05)
        assert app.train_pane.training and live_children(), "the merges come from a child process"
        app.exit()
    for _ in range(100):
        if not live_children():
            break
        await asyncio.sleep(0.05)
    assert not live_children(), "quitting mid-run leaves no process behind"
