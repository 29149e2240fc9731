"""The one batching of steps: a time-sliced stream, so a consumer handles ~10 messages a second
instead of thousands (posting every merge to a UI would cost more than making it)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from ..steps import TrainingStep

BATCH_SECONDS = 0.1


def batched(
    steps: Iterable[TrainingStep], *, seconds: float = BATCH_SECONDS, clock: Callable[[], float]
) -> Iterator[tuple[TrainingStep, ...]]:
    """Group ``steps`` into tuples, one about every ``seconds``; the last (possibly empty) tuple
    always comes, so the final progress is reported even when nothing was left over.

    >>> ticks = iter(range(100))
    >>> [len(b) for b in batched(range(5), seconds=2, clock=lambda: next(ticks))]
    [2, 2, 1]
    """
    batch: list[TrainingStep] = []
    last = clock()
    for step in steps:
        batch.append(step)
        now = clock()
        if now - last >= seconds:
            yield tuple(batch)
            batch = []
            last = now
    yield tuple(batch)
