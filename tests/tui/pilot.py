"""The one set of Pilot helpers the app's tests share: make the app, wait for it, read what it shows.

* :func:`make_app` builds the app as the CLI does, with a training runner of the test's choosing
  (:func:`runner`: a backend forced, every step slowed, a run left unfinished after N steps, a
  fixed clock) -- dependency injection, not hooks in the product. :class:`InspectorHost` and
  :class:`CompareHost` run one pane alone, given the state the app would set on it.
* :func:`settle` waits until every worker finished (a cancelled or failed one counts) and what they
  posted was handled; :func:`train_to_end` presses ctrl+t and settles. :func:`settle_panes` also
  waits past the panes' typing debounce, for tests that type into Inspect or Compare.
* :func:`until` waits for a condition by rounds of the app's own work, not by the clock.
* :func:`shown` is the plain text a text widget shows now; :func:`footer_keys` the footer's keys;
  :func:`toasts` the notifications the app holds (newest last) and :func:`drawn_toasts` those on
  screen, as drawn.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from rich.console import Console
from rich.text import Text
from textual.app import App, ComposeResult
from textual.content import Content
from textual.widgets import Input, TextArea
from textual.worker import WorkerCancelled, WorkerFailed

from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.pretokenizers import GPT2
from bpe_engine.training.runner import Backend, Event, TrainingRequest, run_training
from tests.engine.test_inspect_fixtures import hand_ranks
from tui.app import ExplorerApp
from tui.compare import STYLESHEET as COMPARE_STYLESHEET
from tui.compare import ComparePane
from tui.inspect import STYLESHEET as INSPECT_STYLESHEET
from tui.inspect import InspectorPane
from tui.state import ExplorerState
from tui.textual_compat import FooterKey
from tui.train.pane import TrainPane
from tui.widgets.keys_footer import KeysFooter

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


def hand_bpe() -> BpeTokenizer:
    """A tiny byte-level BPE from a hand-made rank table (:mod:`tests.engine.test_inspect_fixtures`)."""
    return BpeTokenizer.from_ranks(name="hand", mergeable_ranks=hand_ranks(), pre_tokenizer=GPT2)


class InspectorHost(App[None]):
    """The Inspect pane alone, on ``text`` with the tokenizer ``spec``."""

    CSS_PATH = [INSPECT_STYLESHEET]
    TITLE = "Host"  # the title the snapshots were drawn with

    def __init__(self, text: str, spec: str = "gpt2", tokenizer: Any = None) -> None:
        super().__init__()
        self._text, self._spec = text, spec
        self.state = ExplorerState(tokenizer=tokenizer, step=0)

    def compose(self) -> ComposeResult:
        yield InspectorPane(id="inspector", text=self._text, spec=self._spec, state=self.state)

    def on_mount(self) -> None:
        self.query_one(Input).cursor_blink = False


class CompareHost(App[None]):
    """The Compare pane alone, given the state the explorer app would set on it."""

    CSS_PATH = [COMPARE_STYLESHEET]
    TITLE = "Host"  # the title the snapshots were drawn with

    def __init__(self, text: str, rows: tuple[str, ...], tokenizer: Any = None, state: ExplorerState | None = None) -> None:
        super().__init__()
        self._text, self._rows = text, rows
        step = tokenizer.n_merges if tokenizer is not None else 0
        self.state = state if state is not None else ExplorerState(tokenizer=tokenizer, step=step)

    def compose(self) -> ComposeResult:
        yield ComparePane(id="compare", text=self._text, rows=self._rows, state=self.state)

    def on_mount(self) -> None:
        self.query_one(TextArea).cursor_blink = False


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


async def settle_panes(pilot: Any) -> None:
    """Wait until the panes' runs and what they posted are done.

    The panes debounce typing by at most 0.12 s and run everything else at once, so two rounds of
    "past the debounce, then every worker finished" see each chain through (a run, then the "why"
    it asks for).
    """
    for _ in range(2):
        await pilot.pause(0.13)
        await workers_done(pilot)
    await pilot.pause()


async def workers_done(pilot: Any) -> None:
    """Every worker finished or cancelled. A run may be cancelled by the newer run that replaces it
    (exclusive workers): waiting then raises WorkerCancelled, which only means "wait again" (a
    loaded CI machine hit it)."""
    for _attempt in range(50):
        try:
            await pilot.app.workers.wait_for_complete()
            return
        except WorkerCancelled:
            await pilot.pause(0.05)


async def until(pilot: Any, condition: Callable[[], bool], *, rounds: int = 10_000) -> None:
    """Wait until ``condition()`` holds, for up to ``rounds`` pauses of 10 ms each handled by the
    app: a busy machine makes each round longer, so a slow run is waited for, not failed (a clock
    deadline failed on a loaded CI machine). A condition that never comes fails after the rounds."""
    for _ in range(rounds):
        if condition():
            return
        await pilot.pause(0.01)
    assert condition(), f"still not so after {rounds} rounds of the app's work"


def footer_keys(app: App[Any], *, shown_only: bool = False) -> list[FooterKey]:
    """The keys of the footer's current row (``shown_only``: those on screen, with a width)."""
    keys = app.query_one(KeysFooter).keys()
    return [key for key in keys if key.display and key.region.width] if shown_only else keys


def toasts(app: App[Any]) -> list[str]:
    """The messages of the notifications the app holds, oldest first."""
    return [note.message for note in app._notifications]  # noqa: SLF001 - Textual keeps no public list


def drawn_toasts(app: App[Any]) -> list[str]:
    """The text of every toast on screen, as rendered."""
    from textual.widgets._toast import Toast

    return [str(toast.render()) for toast in app.screen.query(Toast)]


def newest_toast_drawn(app: App[Any]) -> str:
    """The newest notification drawn as its toast would be (shown on screen or not)."""
    from textual.widgets._toast import Toast

    return str(Toast(list(app._notifications)[-1]).render())  # noqa: SLF001 - no public list


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


__all__ = [
    "SMALL",
    "CompareHost",
    "InspectorHost",
    "hand_bpe",
    "make_app",
    "pane",
    "runner",
    "set_input",
    "set_select",
    "settle",
    "settle_panes",
    "shown",
    "toasts",
    "drawn_toasts",
    "newest_toast_drawn",
    "footer_keys",
    "until",
    "train_to_end",
    "workers_done",
]
