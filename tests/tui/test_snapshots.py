"""Snapshots of the main states: fresh start, mid-training, finished with a step selected.

Deterministic: a fixed corpus, no cursor blink, a stubbed clock (so merges/s and the time waited are
fixed) and a runner that leaves the run mid-training after a fixed number of merges.
"""

from __future__ import annotations

import itertools

from textual.pilot import Pilot
from textual.widgets import TextArea
from textual.worker import WorkerCancelled, WorkerFailed

from tests.tui.pilot import make_app, runner
from tui.app import ExplorerApp
from tui.widgets.keys_footer import KeysFooter

CORPUS = (
    "the lower the newest, the widest: low lower lowest new newer newest wide wider widest\n"
    "[bold]markup[/bold] stays literal\n"
    "한국어 문장 한국 한글 😀 👩‍💻\n"
) * 3
SIZE = (120, 36)
FOOTER_TRIES = 500
FOOTER_STEADY = 3


def snapshot_app(stop_after: int | None = None) -> ExplorerApp:
    ticks = itertools.count()

    def clock() -> float:
        return next(ticks) * 0.001  # 1 ms per clock read: fixed rates in the progress line

    return make_app(CORPUS, source="snapshot corpus", clock=clock, runner=runner(backend="thread", stop_after=stop_after, clock=clock))


async def quiet(pilot: Pilot) -> None:
    """Stop the blinking cursor and let every worker and message settle."""
    app = pilot.app
    app.query_one("#corpus-text", TextArea).cursor_blink = False
    for worker in list(app.workers):
        try:
            await worker.wait()
        except (WorkerCancelled, WorkerFailed):
            pass
    await pilot.pause()
    # The footer redraws its keys some time after a refresh (Textual recomposes it after the next
    # frame), later still on a loaded machine: wait until it shows esc exactly while a run goes,
    # not for a fixed time (a fixed pause made these snapshots flaky under load).
    steady = 0
    for _ in range(FOOTER_TRIES):
        keys = [key.action for key in app.query_one(KeysFooter).keys()]
        right = ("cancel" in keys) == app.train_pane.training and len(keys) == len(set(keys))
        steady = steady + 1 if right else 0
        if steady == FOOTER_STEADY:  # the same right footer several frames running: no redraw pending
            break
        await pilot.pause()


async def set_vocab(pilot: Pilot, value: str) -> None:
    pilot.app.query_one("#vocab").value = value
    await pilot.pause()


def test_fresh_start(snap_compare) -> None:  # noqa: ANN001
    assert snap_compare(snapshot_app(), terminal_size=SIZE, run_before=quiet)


def test_mid_training(snap_compare) -> None:  # noqa: ANN001
    async def run_before(pilot: Pilot) -> None:
        app: ExplorerApp = pilot.app  # type: ignore[assignment]
        await set_vocab(pilot, "300")
        await pilot.press("ctrl+t")
        await quiet(pilot)
        assert app.train_pane.training and app.train_pane.stepper is not None and app.train_pane.stepper.available == 12

    assert snap_compare(snapshot_app(stop_after=12), terminal_size=SIZE, run_before=run_before)


def test_finished_with_step_selected(snap_compare) -> None:  # noqa: ANN001
    async def run_before(pilot: Pilot) -> None:
        app: ExplorerApp = pilot.app  # type: ignore[assignment]
        await set_vocab(pilot, "300")
        await pilot.press("ctrl+t")
        await quiet(pilot)
        await pilot.press("j", "9", "enter")
        await quiet(pilot)
        assert app.train_pane.current_step == 9

    assert snap_compare(snapshot_app(), terminal_size=SIZE, run_before=run_before)
