"""The one set of Pilot helpers the app's tests share: make the app, wait for it, read what it shows.

* :func:`make_app` builds the app as the CLI does, with a training runner of the test's choosing
  (:func:`runner`: a backend forced, every step slowed, a run left unfinished after N steps, a
  fixed clock) -- dependency injection, not hooks in the product.
* :func:`settle` waits until every worker finished (a cancelled one counts) and what they posted
  was handled; :func:`train_to_end` presses ctrl+t and settles.
* :func:`shown` is the plain text a text widget shows now.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from rich.console import Console
from rich.text import Text
from textual.content import Content
from textual.widgets import Input
from textual.worker import WorkerCancelled, WorkerFailed

from bpe_engine.training.runner import Backend, Event, TrainingRequest, run_training
from tui.app import ExplorerApp
from tui.train.pane import TrainPane

SMALL = "low lower lowest newer wider\nthe cat sat on the mat, the end.\n한국어 한국 한글 😀👍🏽\n"


def runner(
    *,
    backend: Backend = "auto",
    throttle: float = 0.0,
    stop_after: int | None = None,
    clock: Callable[[], float] | None = None,
) -> Callable[[TrainingRequest, Callable[[], bool]], Iterator[Event]]:
    """A training runner for the app: ``throttle`` seconds after each step (a long run on a tiny
    corpus), ``stop_after`` steps then no final event (a run left in progress), ``backend`` forced,
    ``clock`` for the rates shown."""

    def run(request: TrainingRequest, cancelled: Callable[[], bool]) -> Iterator[Event]:
        request = replace(request, throttle=throttle, stop_after=stop_after)
        extra: dict[str, Any] = {"clock": clock} if clock is not None else {}
        return run_training(request, backend=backend, cancelled=cancelled, **extra)

    return run


def make_app(corpus: str = SMALL, **options: Any) -> ExplorerApp:
    """The app on ``corpus``; ``options`` are ExplorerApp's (``runner=``, ``clock=``, ``source=``)."""
    return ExplorerApp(corpus, **options)


def pane(app: ExplorerApp) -> TrainPane:
    return app.train_pane


def shown(app: ExplorerApp, selector: str) -> str:
    """The plain text a Static or FixedText currently shows."""
    content = app.query_one(selector).content  # type: ignore[attr-defined]
    if isinstance(content, (Text, Content)):
        return content.plain
    console = Console(width=150, record=True, file=io.StringIO())
    console.print(content)
    return console.export_text().rstrip("\n")


async def settle(app: ExplorerApp, pilot: Any) -> None:
    """Wait for every worker (a cancelled one counts as done) and for the messages they posted."""
    for _ in range(3):
        for worker in list(app.workers):
            try:
                await worker.wait()
            except (WorkerCancelled, WorkerFailed):
                pass
        await pilot.pause()
        await pilot.pause()


async def train_to_end(app: ExplorerApp, pilot: Any) -> None:
    await pilot.press("ctrl+t")
    await settle(app, pilot)


async def set_input(pilot: Any, app: ExplorerApp, selector: str, value: str) -> None:
    field = app.query_one(selector, Input)
    field.value = value
    await pilot.pause()


async def set_select(pilot: Any, app: ExplorerApp, selector: str, value: str) -> None:
    from textual.widgets import Select

    app.query_one(selector, Select).value = value
    await pilot.pause()


__all__ = ["SMALL", "make_app", "pane", "runner", "set_input", "set_select", "settle", "shown", "train_to_end"]
