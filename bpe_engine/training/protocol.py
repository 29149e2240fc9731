"""The one protocol every trainer answers, and the one shape of a finished model.

:class:`Training` is what the runner's session, the app (through the runner) and ``bpe-explorer
train`` drive: steps (resumable, stop anywhere), a progress target, notes, and the model so far
as a picklable :class:`ModelState`. The merge trainers answer it through
:class:`~bpe_engine.training.stepwise.StepwiseTraining`; the Unigram trainer answers it itself; a
new trainer answers it in its own package and registers (:mod:`bpe_engine.training.registry`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from .steps import TrainingStep

if TYPE_CHECKING:  # pragma: no cover
    from ..corpus import WordCounts
    from ..corpus.block_text import Text
    from ..corpus.cut import CorpusWords


@dataclass(frozen=True)
class TrainingCorpus:
    """The corpus as the caller has it; a trainer's ``training`` hook takes the form it reads
    (:data:`~bpe_engine.training.registry.Reads`). The app's runner gives ``text`` and, for a
    trainer with a front end, ``words`` (the text cut by it); ``bpe-explorer train`` gives
    ``counts`` (streamed on both cores, or counts files), ``texts`` (documents streamed) or
    ``files`` (with the user's ``memory_limit``)."""

    text: Text | None = None
    words: CorpusWords | None = None
    counts: WordCounts | None = None
    texts: Iterable[str] | None = field(default=None, compare=False)
    files: Sequence[str] | None = None
    memory_limit: int | None = None


@dataclass(frozen=True)
class Saved:
    """What a save wrote: the files, the facts of the model for the report ("500 tokens, 243
    merges"), and notes (a format it could not be written in, and why)."""

    written: list[Path]
    facts: str
    notes: list[str] = field(default_factory=list)


class ModelState(Protocol):
    """A finished (or stopped) model as a picklable recipe: a tokenizer holds caches and compiled
    patterns and does not cross a process pipe, so a run ends with this and the consumer builds
    the tokenizer (``registry.spec_for(state.model)``'s ``tokenizer`` hook)."""

    @property
    def model(self) -> str:
        """The registered trainer that made it (its hooks build, save and load it)."""
        ...


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

    def steps(self) -> Iterator[TrainingStep]:
        """Yield the steps until training stops; a new call goes on where the last one stopped."""
        ...

    def model_state(self) -> ModelState:
        """The model so far as a picklable recipe."""
        ...


__all__ = ["ModelState", "Saved", "Training", "TrainingCorpus"]
