"""The stepping protocol every trainer shares: one merge per ``next()``, stop anywhere, resume.

:class:`~bpe_engine.training.bpe.BpeTraining` and
:class:`~bpe_engine.training.wordpiece.trainer.WordPieceTraining` differ only in how they choose and apply
the next merge (``_next``) and what they note when training stops (``_note_stop``); both answer
the one :class:`~bpe_engine.training.protocol.Training` protocol the runner, the app and the CLI
drive.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .steps import MergeStep

if TYPE_CHECKING:
    from .runner.model_state import MergeModelState


class StepwiseTraining(ABC):
    """Base of the trainers. Subclasses set ``config`` (with ``vocab_size``), ``_initial_size``
    (the vocabulary before any merge) and ``_finished = False`` in ``__init__``."""

    config: Any
    _initial_size: int
    _finished: bool
    notes: list[str]
    merges: list[tuple[str, str]]

    @property
    def vocab(self) -> dict[str, int]:
        """Token -> id for the merges made so far."""
        raise NotImplementedError

    @property
    def target_merges(self) -> int:
        """An upper bound of the merges done plus still to come (for progress bars)."""
        return max(0, self.config.vocab_size - self._initial_size)

    @property
    def target_steps(self) -> int:
        """The runner's name for :attr:`target_merges` (every trainer's steps are counted so)."""
        return self.target_merges

    @property
    def initial_size(self) -> int:
        """The vocabulary before the first merge: specials and alphabet."""
        return self._initial_size

    def model_state(self) -> MergeModelState:
        """The model so far as a picklable recipe (the runner builds the tokenizer from it)."""
        from .runner.model_state import MergeModelState

        return MergeModelState(self.config, tuple(self.vocab.items()), tuple((a, b) for a, b in self.merges))

    @property
    def finished(self) -> bool:
        return self._finished

    def __iter__(self) -> Iterator[MergeStep]:
        return self.steps()

    def steps(self) -> Iterator[MergeStep]:
        """Yield one :class:`MergeStep` per merge until training stops; resumable."""
        while not self._finished:
            step = self._next()
            if step is None:
                self._finished = True
                self._note_stop()
                return
            self._record(step)
            yield step

    @abstractmethod
    def _next(self) -> MergeStep | None:
        """Make the next merge, or return None when training is over."""

    @abstractmethod
    def _note_stop(self) -> None:
        """Say in ``notes`` why training stopped."""

    def _record(self, step: MergeStep) -> None:
        """Keep what the subclass tracks per merge (nothing by default)."""
