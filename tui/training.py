"""The body of the training worker, kept apart from the app so it reads (and tests) as plain code.

The app calls :func:`run_training` inside ``@work(thread=True, exclusive=True, exit_on_error=False)``.
It iterates the engine's one-merge-at-a-time generator and posts a :class:`TrainingBatch` about
every ``batch_seconds``; between merges it polls ``is_cancelled`` so cancelling (or quitting)
stops the thread after at most one merge. It only ever *posts* messages: the UI is touched on the
UI thread by the app's handlers, which drop messages of stale runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from textual.message import Message

from bpe_engine.errors import BpeEngineError, ConfigError
from bpe_engine.pretokenizers import PreTokenizer
from bpe_engine.byte_table import bytes_to_token_str
from bpe_engine.corpus import WordCounts
from bpe_engine.stepper import Stepper, StepperCancelled
from bpe_engine.types import MergeStep

from .messages import TrainingBatch, TrainingFailed, TrainingFinished, TrainingStarted

ModelName = Literal["bpe", "wordpiece"]
CHILD_MIN_CHARS = 300_000
"""Texts at least this long train BPE in a child process, so the UI keeps the GIL to itself."""
TieBreak = Literal["hf", "lexicographic", "first-seen"]


@dataclass(frozen=True)
class TrainRequest:
    """Everything one run needs, copied out of the widgets so the thread never reads the UI."""

    text: str
    model: ModelName = "bpe"
    byte_level: bool = True
    pre_tokenizer: PreTokenizer = field(default_factory=lambda: _gpt2())
    vocab_size: int = 1000
    min_frequency: int = 0
    tie_break: TieBreak = "hf"
    stop_after: int | None = None  # test hook: stop consuming after this many merges (mid-training state)
    throttle: float = 0.0  # test hook: sleep this long after each merge (a long run on a tiny corpus)


def _gpt2() -> PreTokenizer:
    from bpe_engine.pretokenizers import GPT2

    return GPT2


def wordpiece_available() -> bool:
    """WordPiece joins the model selector once its engine package is importable."""
    try:
        import bpe_engine.wordpiece.trainer  # noqa: F401
    except ImportError:
        return False
    return True


def word_counts(stepper: Stepper, *, byte_level: bool) -> WordCounts:
    """The trainer's input, read off the stepper's pass over the corpus.

    ``count_words([text], pre_tokenizer)`` gives the same counts in the same first-seen order,
    but cannot be interrupted: on a 10 MB corpus the app could not quit for seconds.
    """
    if byte_level:
        keys = [bytes_to_token_str(w.encode("utf-8")) for w in stepper.word_texts]
    else:
        keys = stepper.word_texts
    return WordCounts(dict(zip(keys, stepper.counts)), byte_level, documents=1, total_words=sum(stepper.counts))


def make_training(request: TrainRequest, counts: WordCounts | None = None):  # -> BpeTraining | WordPieceTraining
    """Build the engine's trainer for ``request`` (raises ConfigError on bad settings)."""
    from bpe_engine.corpus import count_words

    if request.model == "wordpiece":
        if not wordpiece_available():
            raise ConfigError("WordPiece is not available in this build; choose the BPE model")
        from bpe_engine.wordpiece.trainer import WordPieceTrainerConfig, WordPieceTraining

        if counts is None:
            counts = count_words([request.text], request.pre_tokenizer, byte_level=False, workers=1)
        config = WordPieceTrainerConfig(
            vocab_size=request.vocab_size, pre_tokenizer=request.pre_tokenizer, min_frequency=request.min_frequency
        )
        return WordPieceTraining(counts, config)
    from bpe_engine.bpe_trainer import BpeTraining

    if counts is None:
        counts = count_words([request.text], request.pre_tokenizer, byte_level=request.byte_level, workers=1)
    return BpeTraining(counts, bpe_config(request))


def bpe_config(request: TrainRequest):  # -> BpeTrainerConfig
    """The BPE trainer's config for ``request`` (raises ConfigError on bad settings)."""
    from bpe_engine.bpe_trainer import BpeTrainerConfig

    return BpeTrainerConfig(
        vocab_size=request.vocab_size,
        byte_level=request.byte_level,
        pre_tokenizer=request.pre_tokenizer,
        min_frequency=request.min_frequency,
        tie_break=request.tie_break,
    )


def trains_in_child(request: TrainRequest, child_min_chars: int | None = CHILD_MIN_CHARS) -> bool:
    """Whether the merges of ``request`` run in a child process (tui/child_training.py).

    Only BPE on big texts: a small corpus trains in well under a second in the worker thread,
    less than a process takes to start. The test hooks (``stop_after``, ``throttle``) keep the
    in-thread path, which implements them. ``child_min_chars=None`` never uses a child.
    """
    return (
        child_min_chars is not None
        and request.model == "bpe"
        and len(request.text) >= child_min_chars
        and request.stop_after is None
        and not request.throttle
    )


class _Batcher:
    """Collects merges and posts one :class:`TrainingBatch` about every ``batch_seconds``.

    Both in-process paths (training and replaying a loaded tokenizer) stream through it; the
    child-process path batches on its side of the pipe instead.
    """

    def __init__(
        self,
        run_id: int,
        post: Callable[[Message], object],
        target: int,
        start: float,
        batch_seconds: float,
        clock: Callable[[], float],
    ) -> None:
        self.run_id, self.post, self.target, self.start = run_id, post, target, start
        self.batch_seconds, self.clock = batch_seconds, clock
        self.done = 0
        self._batch: list[MergeStep] = []
        self._last_post = clock()

    def add(self, step: MergeStep) -> None:
        self._batch.append(step)
        self.done += 1
        now = self.clock()
        if now - self._last_post >= self.batch_seconds:
            self._send(now)

    def flush(self) -> float:
        """Post what is left (possibly nothing: the final batch also carries the last progress)."""
        now = self.clock()
        self._send(now)
        return now

    def _send(self, now: float) -> None:
        rate = self.done / max(now - self.start, 1e-9)
        self.post(TrainingBatch(self.run_id, tuple(self._batch), self.done, self.target, rate))
        self._batch = []
        self._last_post = now


def run_training(
    request: TrainRequest,
    run_id: int,
    post: Callable[[Message], object],
    is_cancelled: Callable[[], bool],
    *,
    batch_seconds: float = 0.1,
    clock: Callable[[], float] = time.monotonic,
    child_min_chars: int | None = CHILD_MIN_CHARS,
) -> None:
    """Train, posting Started, Batch..., then Finished or Failed (never raises for user errors).

    Big BPE runs (:func:`trains_in_child`) compute the merges in a child process; the messages
    are the same either way.
    """
    try:
        start = clock()
        prefix = "##" if request.model == "wordpiece" else None
        byte_level = request.byte_level and request.model == "bpe"
        stepper = Stepper.from_text(
            request.text,
            request.pre_tokenizer,
            byte_level=byte_level,
            merges=[],
            continuing_prefix=prefix,
            cancelled=is_cancelled,
        )
        if trains_in_child(request, child_min_chars):
            from .child_training import stream_child_training

            config = bpe_config(request)  # bad settings fail here, before a process starts
            counts = word_counts(stepper, byte_level=byte_level)
            if is_cancelled():
                return
            stream_child_training(
                counts, config, stepper, run_id, post, is_cancelled, start=start, batch_seconds=batch_seconds,
                clock=clock,
            )
            return
        training = make_training(request, word_counts(stepper, byte_level=byte_level))
        if is_cancelled():
            return
        target = int(training.target_merges)
        post(TrainingStarted(run_id, stepper, target, tuple(getattr(training, "notes", ()))))
        batches = _Batcher(run_id, post, target, start, batch_seconds, clock)
        for step in training.steps():
            if is_cancelled():
                return
            batches.add(step)
            if request.stop_after is not None and batches.done >= request.stop_after:
                break
            if request.throttle:
                time.sleep(request.throttle)
        now = batches.flush()
        if request.stop_after is not None and batches.done >= request.stop_after:
            return  # the test hook leaves the run "in progress" forever
        post(TrainingFinished(run_id, training.tokenizer(), batches.done, now - start))
    except StepperCancelled:
        return
    except BpeEngineError as exc:
        post(TrainingFailed(run_id, str(exc)))
    except Exception as exc:  # a bug: shown in the app, never a crash of the UI
        post(TrainingFailed(run_id, f"internal error ({type(exc).__name__}): {exc}"))


def run_replay(
    tokenizer: object,
    text: str,
    run_id: int,
    post: Callable[[Message], object],
    is_cancelled: Callable[[], bool],
    *,
    batch_seconds: float = 0.1,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Replay a loaded tokenizer's merges over ``text`` as if it were training.

    A file has no counts, so a second stepper walks the merges over the corpus and measures each
    one (pair count, words changed, tokens fused); the app then receives ordinary batches and the
    merge list, stepping and derivations work exactly as after training.
    """
    try:
        start = clock()
        merges = [(str(a), str(b), str(a) + str(b)) for a, b in getattr(tokenizer, "merges")]
        vocab = getattr(tokenizer, "vocab", {})
        byte_level = bool(getattr(tokenizer, "byte_level", True))
        pre = getattr(tokenizer, "pre_tokenizer")
        stepper = Stepper.from_text(text, pre, byte_level=byte_level, merges=[], cancelled=is_cancelled)
        counter = Stepper.from_text(text, pre, byte_level=byte_level, merges=merges, cancelled=is_cancelled)
        post(TrainingStarted(run_id, stepper, len(merges)))
        batches = _Batcher(run_id, post, len(merges), start, batch_seconds, clock)
        for rank, (left, right, new) in enumerate(merges):
            if is_cancelled():
                return
            change = counter.forward()
            batches.add(
                MergeStep(
                    rank,
                    left,
                    right,
                    new,
                    vocab.get(left, -1),
                    vocab.get(right, -1),
                    vocab.get(new, -1),
                    change.pair_count,
                    change.words_changed,
                    change.occurrences,
                )
            )
        now = batches.flush()
        post(TrainingFinished(run_id, tokenizer, len(merges), now - start))  # type: ignore[arg-type]
    except StepperCancelled:
        return
    except BpeEngineError as exc:
        post(TrainingFailed(run_id, str(exc)))
    except Exception as exc:  # a bug: shown in the app, never a crash of the UI
        post(TrainingFailed(run_id, f"internal error ({type(exc).__name__}): {exc}"))
