"""Training progress: a bar with steps done / target and steps per second, the run's state,
the retrain offer, and Train / Cancel buttons for mouse users.

A run counts merges (BPE, WordPiece) or steps (Unigram's seeds, EM iterations and pruning rounds);
"done" says how long the user waited since ctrl+t and how much of it the trainer took."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, ProgressBar, Static

from bpe_engine.display import counted

from ..widgets.steady_static import SteadyStatic
from .render import counting_text


class ProgressPanel(Vertical):
    """Shows what the current run is doing; the app calls the ``show_*`` methods."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="progress-row"):
            yield ProgressBar(total=1, show_eta=False, show_percentage=True, id="progress-bar")
            yield Button("Train", id="train-button", variant="primary", compact=True)
            yield Button("Cancel", id="cancel-button", variant="error", compact=True, disabled=True)
        yield SteadyStatic("", id="progress-status", markup=False)
        yield Static("", id="run-comparison", markup=False)
        yield Static("", id="retrain-offer", markup=False)

    def _show_bar(self, done: int, total: int) -> None:
        """``done`` of ``total``; nothing counted is ``(0, 1)``, an empty bar -- never Textual's
        indeterminate pattern, which is a full bar once animations are off and looked like a run
        still going after a failure."""
        self.query_one("#progress-bar", ProgressBar).update(total=max(total, 1), progress=done)

    def _status(self, text: Text) -> None:
        """Show ``text``; the screen is laid out again only when its height changes (a layout pass
        on each batch of merges, ten a second, took much of the UI thread while a corpus trained,
        and a key pressed then waited behind it)."""
        self.query_one("#progress-status", SteadyStatic).show(text)

    def _set_running(self, running: bool) -> None:
        self.query_one("#cancel-button", Button).disabled = not running

    def show_idle(self, message: str = "ready: press ctrl+t (or Train) to train") -> None:
        self._set_running(False)
        self._show_bar(0, 1)
        self._status(Text(message, style="dim"))

    def show_started(self, target: int, unit: str = "merges") -> None:
        """``unit``: what the trainer's run counts (its registration's: merges, steps)."""
        self._set_running(True)
        self._show_bar(0, target)
        self._status(Text(f"training: 0 / {target:,} {unit}", style="bold"))
        self.offer_retrain(False)
        self.show_comparison("")

    def show_counting(self, done: int | None = None, total: int | None = None) -> None:
        """Cutting the corpus into words; ``done`` of ``total`` characters once a big one reports."""
        self._set_running(True)
        if done is None or not total:
            self._show_bar(0, 1)
            self._status(Text("counting words…", style="bold"))
            self.offer_retrain(False)
            return
        self._show_bar(done, total)
        self._status(counting_text(done, total))

    def show_progress(self, done: int, target: int, rate: float, unit: str = "merges") -> None:
        self._show_bar(done, target)
        self._status(Text.assemble(("training: ", "bold"), f"{done:,} / {target:,} {unit} · {rate:,.0f} {unit}/s"))

    def show_finished(
        self, done: int, target: int, seconds: float, unit: str = "merges", waited: float | None = None, *, exact_target: bool = True
    ) -> None:
        """``seconds``: what the trainer took; ``waited``: since the user asked (cutting the corpus,
        starting a process and drawing included); ``exact_target``: the target was a promise (a
        merge trainer's), so stopping short of it is said (an estimate -- Unigram's -- is not)."""
        self._set_running(False)
        self._show_bar(done, done)
        short = "" if done >= target or not exact_target else f" (stopped early: no pair left to merge, target {target:,})"
        took = f"{waited:.1f} s after ctrl+t ({seconds:.1f} s training)" if waited is not None else f"{seconds:.1f} s training"
        self._status(Text(f"done: {done:,} {unit} · {took}{short}", style="green"))

    def show_cancelled(self, done: int | None, unit: str = "merges") -> None:
        """``done`` steps of the run stay; None: cancelled before it started (the previous run stays)."""
        self._set_running(False)
        if done is None:
            self._show_bar(0, 1)
            self._status(Text("cancelled before training started; the previous steps stay", style="yellow"))
            return
        self._status(Text(f"cancelled after {done:,} {unit} (ctrl+t trains again)", style="yellow"))

    def show_failed(self, message: str) -> None:
        self._set_running(False)
        self._show_bar(0, 1)
        self._status(Text(message, style="bold red"))

    def show_loaded(self, label: str, merges: int) -> None:
        self._set_running(False)
        self._show_bar(merges, merges)
        self._status(Text(f"exploring {label}: {counted(merges, 'merge')}", style="green"))

    def show_comparison(self, text: str) -> None:
        """The rule lab's line: what the last change of settings did to the merges ("" hides it)."""
        line = self.query_one("#run-comparison", Static)
        line.update(Text(text, style="cyan") if text else "")
        line.set_class(bool(text), "-visible")

    def offer_retrain(self, show: bool, why: str = "corpus or settings changed") -> None:
        offer = self.query_one("#retrain-offer", Static)
        offer.update(Text(f"{why}: press ctrl+t to retrain", style="bold yellow") if show else "")
        offer.set_class(show, "-visible")

