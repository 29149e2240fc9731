"""The runner's one view of every trainer: steps, a progress target, notes and the finished model.

:class:`Training` is what :mod:`.session` drives. The merge trainers (BPE, WordPiece) are
:class:`~bpe_engine.training.stepwise.StepwiseTraining` and answer it themselves; the Unigram
trainer reads whole lines instead of counted words and keeps its own vocabulary of pieces, so
:class:`UnigramRun` adapts it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from ...core.block_text import whole
from ..steps import TrainingStep
from .model_state import MergeModelState, ModelState, SentencePieceModelState
from .request import TrainingRequest


class Training(Protocol):
    """A run in progress: its steps, how many to expect, what it wants said, and its result."""

    notes: list[str]

    @property
    def target_steps(self) -> int:
        """Steps done plus still to come (an estimate where the trainer cannot know)."""
        ...

    @property
    def initial_size(self) -> int:
        """The vocabulary before the first step (0 when the first step makes it)."""
        ...

    def steps(self) -> Iterator[TrainingStep]: ...

    def model_state(self) -> ModelState:
        """The finished model as a picklable recipe (:mod:`.model_state`)."""
        ...


class UnigramRun:
    """:class:`~bpe_engine.training.unigram.UnigramTraining` as a :class:`Training`."""

    def __init__(self, request: TrainingRequest) -> None:
        from ..unigram import UnigramTraining

        self._training = UnigramTraining(whole(request.text).split("\n"), request.config)
        self.notes = self._training.notes

    @property
    def target_steps(self) -> int:
        return self._training.total_steps

    @property
    def initial_size(self) -> int:
        return 0

    def steps(self) -> Iterator[TrainingStep]:
        return self._training.steps()

    def model_state(self) -> ModelState:
        return SentencePieceModelState(self._training.model_bytes(), f"unigram-{len(self._training.pieces)}")


def make_training(request: TrainingRequest, words=None) -> Training:  # noqa: ANN001 - CorpusWords | None
    """The trainer ``request`` asks for, over ``words`` (its corpus cut by the config's front end;
    None for Unigram, which reads the text's lines itself)."""
    config = request.config
    if config.model == "unigram":
        return UnigramRun(request)
    counts = words.word_counts(byte_level=config.byte_level)
    if config.model == "wordpiece":
        from ..wordpiece import WordPieceTraining

        return WordPieceTraining(counts, config)
    from ..bpe import BpeTraining

    return BpeTraining(counts, config)


def merge_model_state(training) -> MergeModelState:  # noqa: ANN001 - a StepwiseTraining
    """The model state of a merge trainer: its config, vocabulary and merges so far."""
    return MergeModelState(training.config, tuple(training.vocab.items()), tuple(tuple(m) for m in training.merges))


__all__ = ["Training", "UnigramRun", "make_training", "merge_model_state"]
