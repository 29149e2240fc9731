"""Moving the step: far jumps in slices, and play at a chosen speed.

The Train pane owns the step and holds one :class:`Stepping`. Keys, the jump prompt and the step
list all *ask* for a step; :meth:`Stepping.seek` moves the stepper and the pane draws every view,
the list's cursor included -- no view moves the step on its own, so no echo can start a loop.

A far jump moves in slices (:data:`SEEK_SLICE` of work, then a short timer lets keys and a frame
through): a jump to the last of 7,744 merges of a 10 MB corpus froze the screen and the keys for
~0.7 s. Play keeps its promise: each tick applies as many steps as the wall clock says are due at
the chosen speed, then draws once (drawing every merge capped play at ~21 merges/s).

The stepper moves with the cyclic collector paused (:func:`~tui.gc_pause.collector_paused`), and
what it built is frozen after each slice (the young garbage collected first): each merge leaves an undo entry and new sets in the pair
index, all kept, and the collector's passes over them were most of a far jump -- G to the last of
29,744 merges (10 MB) spent 5.9 s of its 6.2 s CPU in 6 full and 66 middle passes.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from functools import partial
from typing import Protocol

from textual.timer import Timer

from ..gc_pause import collector_paused
from .runs import AnyStepper

SPEEDS = (1, 2, 5, 10, 25, 50, 100, 250)  # steps per second while playing
PLAY_TICK = 1 / 30  # seconds between redraws while playing
SEEK_SLICE = 0.05  # seconds of merges in a row before a far jump lets keys and frames through
SEEK_PAUSE = 0.004  # seconds between two slices: the other widgets' messages and a frame go on
SEEK_SHOW_EVERY = 0.25  # seconds: a far jump shows where it has got to this often


class Host(Protocol):
    """What stepping needs of the pane that owns it."""

    @property
    def stepper(self) -> AnyStepper | None: ...

    @property
    def training(self) -> bool: ...

    def show_step(self) -> None: ...

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Timer: ...

    def set_interval(self, interval: float, callback: Callable[[], object]) -> Timer: ...


class Stepping:
    """The seek in progress and the play timer of one pane."""

    def __init__(self, host: Host) -> None:
        self._host = host
        self._seek: tuple[AnyStepper, int] | None = None  # a far jump still going: its stepper and target
        self._generation = 0  # a newer seek replaces one still going
        self._playing: Timer | None = None
        self._play_origin = (0.0, 0)  # (clock, step) when play (or a speed) started
        self.speed = 3  # index into SPEEDS

    @property
    def playing(self) -> bool:
        return self._playing is not None

    def heading(self, stepper: AnyStepper) -> int:
        """The step n and b count from: a far jump's target while it is still going."""
        return self._seek[1] if self._seek is not None and self._seek[0] is stepper else stepper.step

    def seek(self, stepper: AnyStepper, step: int) -> None:
        """Move ``stepper`` to ``step`` (clamped), in slices when it is far."""
        self._seek = (stepper, max(0, min(step, stepper.available)))
        self._generation += 1
        self._go_on(self._generation, time.perf_counter())

    def _go_on(self, generation: int, shown_at: float) -> None:
        """Move toward the target for :data:`SEEK_SLICE`, then let keys and a frame through and
        go on; where it has got to is drawn every :data:`SEEK_SHOW_EVERY`. A newer seek, a new
        run or play ends it."""
        if generation != self._generation or self._seek is None:
            return
        stepper, target = self._seek
        if stepper is not self._host.stepper:  # a new run or tokenizer replaced it
            self._seek = None
            return
        there = _moved(lambda: stepper.seek(target, until=time.perf_counter() + SEEK_SLICE))
        if there:
            self._seek = None
            self._host.show_step()
            return
        if time.perf_counter() - shown_at >= SEEK_SHOW_EVERY:
            self._host.show_step()
            shown_at = time.perf_counter()
        # A timer, not call_later: the app's own queue never empties between slices, so a key's
        # chain of messages through the widgets (each its own queue) waited a slice per hop.
        self._host.set_timer(SEEK_PAUSE, partial(self._go_on, generation, shown_at))

    def end_seek(self) -> None:
        """Stop a far jump where it has got to (play takes over from there)."""
        self._seek = None
        self._generation += 1

    # -- play ------------------------------------------------------------------------------------
    def play(self) -> None:
        stepper = self._host.stepper
        if stepper is None:
            return
        self.end_seek()
        self._play_origin = (time.monotonic(), stepper.step)
        self._playing = self._host.set_interval(PLAY_TICK, self._tick)

    def pause(self) -> bool:
        """Stop playing; True when it was playing."""
        if self._playing is None:
            return False
        self._playing.stop()
        self._playing = None
        return True

    def _tick(self) -> None:
        stepper = self._host.stepper
        if stepper is None:
            self.pause()
            return
        started, from_step = self._play_origin
        due = from_step + int((time.monotonic() - started) * SPEEDS[self.speed])
        if stepper.step < stepper.available and due > stepper.step:
            _moved(lambda: stepper.seek(min(due, stepper.available)))
            self._host.show_step()
        elif stepper.step >= stepper.available and not self._host.training:
            self.pause()
            self._host.show_step()

    def set_speed(self, index: int) -> int:
        """Steps per second at speed ``index`` (clamped); play goes on from where it is."""
        self.speed = max(0, min(index, len(SPEEDS) - 1))
        stepper = self._host.stepper
        if stepper is not None:
            self._play_origin = (time.monotonic(), stepper.step)
        return SPEEDS[self.speed]


def _moved(move: Callable[[], bool]) -> bool:
    """``move()`` with the cyclic collector paused; then the young garbage (this slice's and the
    frames' drawn since the last one) is collected and what lives is frozen, so no garbage is
    frozen with the stepper's new entries and later full passes walk neither."""
    with collector_paused():
        there = move()
        gc.collect(1)
    return there


__all__ = ["SPEEDS", "Stepping"]
