"""Compare's runs: when the comparison runs again, where (the UI thread or a worker), which result
may draw, and what the status says while one goes.

Each edit runs the comparison once the key is handled (a burst coalesces: one run at a time, the
newest input next); the text is encoded by every row -- on the UI thread when it is small and
every tokenizer is loaded (instant feedback), in a worker thread otherwise (a tokenizer still to
load is named in the status: "loading tekken…"). Each run carries a generation number and only the
newest run may draw, so a slow stale result never overwrites a newer one. A worker run still going
after :data:`BUSY_AFTER` says so; a run that fails (a bug) says why, and the next one clears it.

:class:`Runs` holds this for one pane: it reads the pane's inputs when a run starts, computes the
run with :func:`.running.run_comparison` (plain data), and hands the result to the
pane's draw callback on the UI thread. The worker only computes and posts the pane's messages.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.timer import Timer

from bpe_engine.compare.segments import SegmentCache
from bpe_engine.display import visible_text
from bpe_engine.types import SpecialMode

from ..state import ExplorerState
from . import running, sources
from .running import Compared

if TYPE_CHECKING:
    from .pane import ComparePane

BUSY_AFTER = 0.15  # a worker run still going after this says so (a quicker one would only flash)
SYNC_LIMIT = 2000  # characters: below this (and with every tokenizer loaded) encode on the UI thread

def ours_key(state: ExplorerState, k: int) -> tuple[object, ...]:
    """What the "ours" row shows depends on: a new model, k, or why there is none."""
    return (state.tokenizer, state.step_models, k, state.training)


class Runs:
    """The comparison runs of one pane: single-flight, newest input next, stale never drawn."""

    def __init__(self, pane: ComparePane, draw: Callable[[Compared], None], show_status: Callable[[], None]) -> None:
        self.pane = pane
        self._draw = draw
        self._show_status = show_status
        self.generation = 0  # the newest run asked for
        self._drawn = 0  # the newest generation drawn
        self._encoding = False  # a worker is encoding
        self._input_changed = False  # input changed while it was
        self._segments = SegmentCache()  # line encodings: typing re-encodes only the edited line
        self._loading = ""
        self._failure = ""  # why the last run gave no result: the rows shown are older than the text
        self._busy_timer: Timer | None = None
        self._ours_used: tuple[object, ...] | None = None  # what the last run's "ours" row showed (see ours_key)
        self._width_used: int | None = None  # the width the last run wrapped the rows to

    @property
    def note(self) -> str:
        """What the status says of the runs: a tokenizer loading, a run still going, a failed run."""
        busy = "encoding… the rows below are of the text before the last change" if self._encoding else ""
        failed = f"comparing failed ({self._failure}): the rows below are of an earlier text" if self._failure else ""
        return self._loading or busy or failed

    def schedule(self, *, immediate: bool = False) -> None:
        """Re-run the comparison once the current event is handled (or at once). A burst of keys
        coalesces without a timer: only the newest generation starts, and while a run is going
        the newest input waits for it (single-flight), so a pause would only add latency."""
        self.generation += 1
        gen = self.generation
        if immediate:
            self._start(gen)
        else:
            self.pane.call_later(self._start, gen)

    def rerun_ours(self) -> None:
        """Run again when the "ours" row is shown and would show something else: a new model or another k."""
        pane = self.pane
        if sources.OURS in pane.rows and self._ours_used != ours_key(pane.state, pane.k):
            self.schedule(immediate=True)

    def rewrap(self) -> None:
        """Run again when the rows would wrap to another width. Textual also sends a Resize each time
        the tab is shown again, at the same size: re-running every row then was ~7 % of an f2/f4 switch."""
        if self.pane.row_width != self._width_used:
            self.schedule()

    def _start(self, generation: int) -> None:
        if generation != self.generation:
            return
        if self._encoding:
            self._input_changed = True  # one run at a time; the newest input runs as soon as it ends
            return
        pane = self.pane
        text, specs, mode, k = pane.text, tuple(pane.rows), pane.special_mode, pane.k
        state = pane.state
        self._ours_used = ours_key(state, k)
        width = self._width_used = pane.row_width
        ours = lambda: state.ours(k)  # noqa: E731 - a frozen state, safe in a worker
        if len(text) <= SYNC_LIMIT and all(sources.is_loaded(s) for s in specs):
            self._accept(running.run_comparison(generation, text, specs, mode, ours, k, width, self._segments))
            return
        self._encoding = True
        self._loading = ""
        if self._busy_timer is not None:
            self._busy_timer.stop()
        self._busy_timer = pane.set_timer(BUSY_AFTER, self._show_status)
        pane.run_worker(
            partial(self._work, generation, text, specs, mode, ours, k, width),
            name="compare_worker", group="compare", description="comparing the rows", exit_on_error=False, thread=True,
        )

    def _work(self, generation: int, text: str, specs: tuple[str, ...], mode: SpecialMode, ours: Any, k: int, width: int) -> None:
        """In the worker thread: compute the run and post its outcome to the pane (no widget touched)."""
        pane = self.pane

        def loading(spec: str, i: int, n: int) -> None:
            pane.post_message(pane.Loading(generation, spec, i, n))

        try:
            result = running.run_comparison(generation, text, specs, mode, ours, k, width, self._segments, loading)
        except Exception as exc:  # noqa: BLE001 - rows catch their own errors; this keeps the pane alive
            pane.post_message(pane.Compared(None, generation, f"{type(exc).__name__}: {exc}"))
            return
        pane.post_message(pane.Compared(result, generation))

    def loading(self, spec: str, i: int, n: int) -> None:
        """The worker is about to load ``spec``, the ``i``-th of ``n``: the status names it."""
        self._loading = f"loading {visible_text(sources.row_label(spec))}… ({i} of {n}, off the UI thread)"
        self._show_status()

    def finished(self, result: Compared | None, error: str) -> None:
        """A worker run ended (``result`` None: it failed with ``error``); the newest input runs next."""
        self._encoding = False
        if self._busy_timer is not None:
            self._busy_timer.stop()
        self._loading = ""
        if result is not None:
            self._accept(result)
        else:
            self._failure = visible_text(error.splitlines()[0] if error else "no result")
            self._show_status()
        if self._input_changed:
            self._input_changed = False
            self._start(self.generation)

    def _accept(self, result: Compared) -> None:
        """Draw ``result`` unless something newer was drawn already (stale never wins)."""
        if result.generation < self._drawn:
            return
        self._drawn = result.generation
        self._failure = ""
        self._draw(result)
