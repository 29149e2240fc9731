"""Running units of work on several forked processes: results in order, few units in flight.

Units are submitted lazily and at most ``window`` of them are pending at once, so a corpus of any
size is never read ahead further than that (the units of a file are byte ranges; a worker reads
its own). If a worker dies (killed, out of memory), the units not yet returned are run in this
process and the rest follow there: the result is the same, only slower.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_all_start_methods, get_context
from typing import Any, TypeVar

U = TypeVar("U")
R = TypeVar("R")


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Forking is safe: possible on this platform and no other thread runs (the app trains in
    a worker thread; a forked child of a threaded process may deadlock on a lock it copied)."""
    return threading.active_count() == 1 and "fork" in get_all_start_methods()


def ordered_map(
    fn: Callable[[U, Any], R], units: Iterable[U], job: Any, workers: int, window: int | None = None
) -> Iterator[R] | None:
    """``fn(unit, job)`` for every unit on ``workers`` forked processes, yielded in unit order;
    None when forking is not possible (the caller then runs the units itself).

    Only ``fork`` is used: it needs no ``if __name__ == "__main__"`` guard in the caller's script
    and starts in milliseconds.
    """
    if not can_fork():
        return None
    try:
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork"))
    except OSError:
        return None
    return _run(pool, fn, iter(units), job, window or 2 * workers)


def _run(pool: ProcessPoolExecutor, fn: Callable[[U, Any], R], units: Iterator[U], job: Any, window: int) -> Iterator[R]:
    pending: deque[tuple[U, Future[R] | None]] = deque()
    try:
        for unit in units:
            pending.append((unit, None))  # kept even if submit fails: it is then run here
            pending[-1] = (unit, pool.submit(fn, unit, job))
            while len(pending) >= window:
                yield _first_result(pending)
        while pending:
            yield _first_result(pending)
    except BrokenProcessPool:
        pass  # a worker died: finish below, in this process
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    for unit, _ in pending:
        yield fn(unit, job)
    for unit in units:
        yield fn(unit, job)


def _first_result(pending: deque[tuple[U, Future[R] | None]]) -> R:
    future = pending[0][1]
    assert future is not None
    result = future.result()
    pending.popleft()
    return result
