"""The one wait the explorer's Pilot tests use: until the panes' runs and what they posted are done.

The panes debounce typing by at most 0.12 s and run everything else at once, so two rounds of
"past the debounce, then every worker finished" see each chain through (a run, then the "why" it
asks for) -- shorter than the 3 x 0.2 s the older pane tests wait, which matters across many calls.
A run may be cancelled by the newer run that replaces it (exclusive workers): waiting for the
workers then raises WorkerCancelled, which only means "wait again" (a loaded CI machine hit it).
"""

from __future__ import annotations

from typing import Any

from textual.worker import WorkerCancelled


async def settle(pilot: Any) -> None:
    for _ in range(2):
        await pilot.pause(0.13)
        await workers_done(pilot)
    await pilot.pause()


async def workers_done(pilot: Any) -> None:
    """Every worker finished or cancelled (the pane tests' settle helpers use it too)."""
    for _attempt in range(50):
        try:
            await pilot.app.workers.wait_for_complete()
            return
        except WorkerCancelled:
            await pilot.pause(0.05)
