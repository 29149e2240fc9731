"""Counting units of work on several forked processes, results in order."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_all_start_methods, get_context
from typing import Any


def count_parallel(
    count: Callable[[Any, Any], Counter[str]], batches: Sequence[Any], job: Any, workers: int
) -> Iterator[Counter[str]] | None:
    """Count the batches on ``workers`` forked processes, yielding results in batch order;
    None when forking is not possible.

    Only ``fork`` is used: it needs no ``if __name__ == "__main__"`` guard in the caller's script
    and starts in milliseconds. It is unsafe once threads exist (the app trains in a worker
    thread), and absent on some platforms: then the caller counts in-process.
    """
    if threading.active_count() > 1 or "fork" not in get_all_start_methods():
        return None
    try:
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork"))
    except OSError:
        return None
    return _results(pool, count, batches, job)


def _results(
    pool: ProcessPoolExecutor, count: Callable[[Any, Any], Counter[str]], batches: Sequence[Any], job: Any
) -> Iterator[Counter[str]]:
    with pool:
        yield from pool.map(count, batches, [job] * len(batches))
