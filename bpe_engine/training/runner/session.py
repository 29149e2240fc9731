"""The body of every run: cut the corpus, train, yield the events. Both backends run this code --
the thread backend in the consumer's worker thread, the child backend inside the child process."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterable, Iterator
from itertools import islice

from ...corpus.cut import CorpusCancelled, CorpusWords
from ...errors import BpeEngineError, ConfigError
from ..steps import TrainingStep
from .batching import BATCH_SECONDS, batched
from ...memory_budget import out_of_memory_line
from .events import Cancelled, Counting, Event, Failed, Finished, Started, Steps
from .request import TrainingRequest
from .trainers import make_training

Clock = Callable[[], float]


def never() -> bool:
    return False


def training_events(
    request: TrainingRequest,
    *,
    cancelled: Callable[[], bool] = never,
    clock: Clock = time.monotonic,
    batch_seconds: float = BATCH_SECONDS,
) -> Iterator[Event]:
    """Counting... (a big corpus), Started, Steps..., then Finished, Cancelled or Failed. Never
    raises for user errors.

    ``cancelled`` is polled between merges and while the corpus is cut; once it returns True the
    run yields :class:`Cancelled` and ends. With the ``stop_after`` test hook the run ends after
    its last batch without a final event (it stays "in progress" for the consumer).
    """
    start = clock()
    done = 0
    try:
        words = request.cut_words()
        if words is None and request.front_end is not None:
            words = yield from _cut(request, cancelled, clock, batch_seconds)
        training = make_training(request, words)
        if cancelled():
            yield Cancelled(0)
            return
        yield Started(training.target_steps, training.initial_size, tuple(training.notes), words)
        steps: Iterable[TrainingStep] = _until(training.steps(), cancelled)
        if request.throttle:
            steps = _throttled(steps, request.throttle)
        if request.stop_after is not None:
            steps = islice(steps, request.stop_after)
        for batch in batched(steps, seconds=batch_seconds, clock=clock):
            done += len(batch)
            yield Steps(batch, done, max(training.target_steps, done), done / max(clock() - start, 1e-9))
        if cancelled():
            yield Cancelled(done)
            return
        if request.stop_after is not None and done >= request.stop_after:
            return
        yield Finished(done, clock() - start, tuple(training.notes), training.model_state())
    except CorpusCancelled:
        yield Cancelled(done)
    except BpeEngineError as exc:
        yield Failed(str(exc), exc.field if isinstance(exc, ConfigError) else None)
    except MemoryError:  # the input and the way out, as the command line says it
        yield Failed(out_of_memory_line())
    except Exception as exc:  # a bug: reported, never a crash of whoever consumes the run
        yield Failed(f"internal error ({type(exc).__name__}): {exc}")


def _cut(
    request: TrainingRequest, cancelled: Callable[[], bool], clock: Clock, batch_seconds: float
) -> Generator[Event, None, CorpusWords]:
    """Cut the corpus into words, yielding :class:`Counting` as often as merge batches, no more."""
    building = CorpusWords.building(request.text, request.front_end, cancelled=cancelled)
    reported = clock()
    while True:
        try:
            cut = next(building)
        except StopIteration as built:
            return built.value
        if clock() - reported >= batch_seconds:
            reported = clock()
            yield Counting(cut, len(request.text))


def _until(steps: Iterable[TrainingStep], cancelled: Callable[[], bool]) -> Iterator[TrainingStep]:
    for step in steps:
        yield step
        if cancelled():
            return


def _throttled(steps: Iterable[TrainingStep], seconds: float) -> Iterator[TrainingStep]:
    for step in steps:
        yield step
        time.sleep(seconds)
