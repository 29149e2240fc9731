"""The steps of the current run as an immutable, append-only log owned by the UI thread.

Batches arrive while the user steps; each batch makes a *new* log that shares the old chunks
(appending is O(batch), not O(log)), so any holder of an older log -- a pane, the stepper, a
comparison running in a worker -- keeps a consistent view that never changes under it.

>>> from bpe_engine.training.steps import MergeStep
>>> a = StepLog().extended([MergeStep(0, "a", "b", "ab", 0, 1, 2, 5, 1, 5)])
>>> b = a.extended([MergeStep(1, "ab", "c", "abc", 2, 3, 4, 3, 1, 3)])
>>> len(a), len(b), b[1].new, [s.new for s in b[-2:]]
(1, 2, 'abc', ['ab', 'abc'])
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Sequence
from typing import overload

from bpe_engine.training.steps import TrainingStep


class StepLog(Sequence[TrainingStep]):
    """A read-only sequence of steps (:class:`MergeStep`, or a Unigram run's) made of shared,
    never-mutated chunks."""

    __slots__ = ("_chunks", "_ends")

    def __init__(self, chunks: tuple[tuple[TrainingStep, ...], ...] = (), ends: tuple[int, ...] = ()) -> None:
        self._chunks = chunks
        self._ends = ends  # cumulative lengths

    def extended(self, steps: Iterable[TrainingStep]) -> StepLog:
        """A new log with ``steps`` appended (this one is unchanged)."""
        chunk = tuple(steps)
        if not chunk:
            return self
        return StepLog(self._chunks + (chunk,), self._ends + (len(self) + len(chunk),))

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    @overload
    def __getitem__(self, index: int) -> TrainingStep: ...

    @overload
    def __getitem__(self, index: slice) -> list[TrainingStep]: ...

    def __getitem__(self, index: int | slice) -> TrainingStep | list[TrainingStep]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"step {index} is not in a log of {len(self)}")
        c = bisect.bisect_right(self._ends, index)
        start = self._ends[c - 1] if c else 0
        return self._chunks[c][index - start]

    def __iter__(self) -> Iterator[TrainingStep]:
        for chunk in self._chunks:
            yield from chunk
