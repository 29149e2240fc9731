"""Stepping through the merges: n / b / g / G / j, the merge list, and play.

A mixin of :class:`~tui.app.ExplorerApp`. The app is the one owner of the step: keys, the
jump prompt and the merge list all *ask* for a step (the list posts
:class:`~tui.train.merge_table.MergeTable.Selected` for real user moves only), the app moves
the stepper and then tells every view, the list's cursor included. No view moves the step on
its own, so no echo can start a loop.

Play keeps its promise: each tick applies as many merges as the wall clock says are due at the
chosen speed, then draws once (drawing every merge capped play at ~21 merges/s).
"""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING

from textual.timer import Timer

from .derivation_view import DerivationView
from .merge_table import MergeTable
from .segmented_view import SegmentedView

if TYPE_CHECKING:
    from bpe_engine.explore.stepper import Stepper

    from ..app import ExplorerApp as _Base
else:
    _Base = object

SPEEDS = (1, 2, 5, 10, 25, 50, 100, 250)  # merges per second while playing
PLAY_TICK = 1 / 30  # seconds between redraws while playing
SEEK_SLICE = 0.05  # seconds of merges in a row before a far jump lets keys and frames through
SEEK_PAUSE = 0.004  # seconds between two slices: the other widgets' messages and a frame go on
SEEK_SHOW_EVERY = 0.25  # seconds: a far jump shows where it has got to this often


class SteppingActions(_Base):
    """Moves the stepper; draws the Train views; announces the step to the other tabs."""

    _playing: Timer | None
    _play_origin: tuple[float, int] = (0.0, 0)  # (clock, step) when play (or a speed) started
    _seek: tuple[Stepper, int] | None = None  # a far jump still going: its stepper and target
    _seek_generation = 0  # a newer seek replaces one still going

    def _can_step(self) -> bool:
        if self.stepper is None or not self.stepper.available:
            self.notify("No merges yet: train first (ctrl+t) or load a tokenizer (ctrl+l).", timeout=3)
            return False
        return True

    def action_next(self) -> None:
        if self._can_step() and self.stepper is not None:
            self.seek(self._heading_for(self.stepper) + 1)

    def action_prev(self) -> None:
        if self._can_step() and self.stepper is not None:
            self.seek(self._heading_for(self.stepper) - 1)

    def _heading_for(self, stepper: Stepper) -> int:
        """The step n and b count from: a far jump's target while it is still going."""
        return self._seek[1] if self._seek is not None and self._seek[0] is stepper else stepper.step

    def action_first(self) -> None:
        self.seek(0)

    def action_last(self) -> None:
        if self.stepper is not None:
            self.seek(self.stepper.available)

    def seek(self, step: int) -> None:
        """Move the corpus view to ``step`` merges applied (clamped); the one way the step moves."""
        if not self._can_step() or self.stepper is None:
            return
        if self.narrow and self.query_one("#train-split").has_class("show-setup"):
            self._show_view("show-steps")  # on a small terminal, stepping brings the steps forward
        self._seek = (self.stepper, max(0, min(step, self.stepper.available)))
        self._seek_generation += 1
        self._seek_on(self._seek_generation, time.perf_counter())

    def _seek_on(self, generation: int, shown_at: float) -> None:
        """Move toward the seek's target for :data:`SEEK_SLICE`, then let the keys and a frame
        through and go on: a jump to the last of 7,744 merges of a 10 MB corpus froze the
        screen and the keys for ~0.7 s (seconds on 50 MB). Where it has got to is drawn every
        :data:`SEEK_SHOW_EVERY`; a newer seek, a new run or play ends it."""
        if generation != self._seek_generation or self._seek is None:
            return
        stepper, target = self._seek
        if stepper is not self.stepper:  # a new run or tokenizer replaced it
            self._seek = None
            return
        if stepper.seek(target, until=time.perf_counter() + SEEK_SLICE):
            self._seek = None
            self._show_step()
            return
        if time.perf_counter() - shown_at >= SEEK_SHOW_EVERY:
            self._show_step()
            shown_at = time.perf_counter()
        # A timer, not call_later: the app's own queue never empties between slices, so a key's
        # chain of messages through the widgets (each its own queue) waited a slice per hop.
        self.set_timer(SEEK_PAUSE, partial(self._seek_on, generation, shown_at))

    def _end_seek(self) -> None:
        """Stop a far jump where it has got to (play takes over from there)."""
        self._seek = None
        self._seek_generation += 1

    def action_jump(self) -> None:
        from ..screens import JumpScreen

        if self._can_step() and self.stepper is not None:
            self.push_screen(JumpScreen(self.stepper.available), lambda k: None if k is None else self.seek(k))

    def on_merge_table_selected(self, message: MergeTable.Selected) -> None:
        self.seek(message.step)

    # -- play ------------------------------------------------------------------------------------
    def action_play(self) -> None:
        if self._playing is not None:
            self.action_pause()
        elif self._can_step() and self.stepper is not None:
            self._end_seek()
            self._play_origin = (time.monotonic(), self.stepper.step)
            self._playing = self.set_interval(PLAY_TICK, self._play_tick)
            self.notify(f"playing at {SPEEDS[self._speed]} merges/s (+/- to change, space to pause)", timeout=2)
            self._show_step()

    def action_pause(self) -> None:
        if self._playing is not None:
            self._playing.stop()
            self._playing = None
            self._show_step()

    def _play_tick(self) -> None:
        stepper = self.stepper
        if stepper is None:
            self.action_pause()
            return
        started, from_step = self._play_origin
        due = from_step + int((time.monotonic() - started) * SPEEDS[self._speed])
        if stepper.step < stepper.available and due > stepper.step:
            stepper.seek(min(due, stepper.available))
            self._show_step()
        elif stepper.step >= stepper.available and not self.training:
            self.action_pause()

    def action_faster(self) -> None:
        self._set_speed(self._speed + 1)

    def action_slower(self) -> None:
        self._set_speed(self._speed - 1)

    def _set_speed(self, index: int) -> None:
        self._speed = max(0, min(index, len(SPEEDS) - 1))
        if self.stepper is not None:
            self._play_origin = (time.monotonic(), self.stepper.step)
        self.notify(f"play speed: {SPEEDS[self._speed]} merges/s", timeout=2)

    # -- drawing ---------------------------------------------------------------------------------
    def _show_step(self) -> None:
        stepper = self.stepper
        if stepper is None or self.view is None:
            return
        byte_level = self.view.byte_level
        self.query_one(SegmentedView).show(stepper, self.view.text, byte_level=byte_level, playing=self._playing is not None)
        self.query_one(DerivationView).show_step(stepper, byte_level=byte_level)
        self.query_one(MergeTable).select_step(stepper.step)
        if self.current_step != stepper.step:
            self.current_step = stepper.step
            self._announce_step()
