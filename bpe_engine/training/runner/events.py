"""The one protocol of a training run: frozen events, the same from a thread or a child process.

A run yields, in order:

* :class:`Started` -- the corpus is cut into words and the trainer is ready; carries the frozen
  word table (the UI builds its own stepper from it; None for Unigram, which reads lines), the
  step target and the trainer's notes;
* :class:`Steps` -- the steps made since the last batch (about every 0.1 s), with progress: BPE
  and WordPiece merges, Unigram seed, EM, pruning and final steps; batches are data and are
  never coalesced;
* then exactly one of :class:`Finished` (with the tokenizer, built on the consumer's side),
  :class:`Cancelled` (the consumer asked to stop) or :class:`Failed` (a user error whose message
  says how to fix it, or a bug reported as ``internal error``).

Every event is a frozen dataclass of plain data (and picklable: the child process sends them
through a pipe), so handing one to another thread can never share mutable state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

from ...corpus.cut import CorpusWords
from ...types import Tokenizer
from ..steps import TrainingStep

if TYPE_CHECKING:  # pragma: no cover
    from .model_state import ModelState


@dataclass(frozen=True, slots=True)
class Counting:
    """The corpus is being cut into words: ``done`` of ``total`` characters so far (a 50 MB corpus
    takes ~40 s here, so the user sees it move)."""

    done: int
    total: int


@dataclass(frozen=True, slots=True)
class Started:
    """Training is about to make its first step. ``alphabet`` is the vocabulary size before it (0
    when the first step makes the vocabulary: Unigram's seeds).

    ``words`` is the cut the run trains on. When the request carried that cut, the child backend
    does not send it back through its pipe (16 MB for 5 MB of text); the parent puts the request's
    own cut back, so every consumer gets the words.
    """

    target: int
    alphabet: int
    notes: tuple[str, ...]
    words: CorpusWords | None


@dataclass(frozen=True, slots=True)
class Steps:
    """Steps since the previous batch; ``done`` counts all steps of the run so far."""

    steps: tuple[TrainingStep, ...]
    done: int
    target: int
    rate: float


@dataclass(frozen=True, slots=True)
class Finished:
    """The trainer stopped on its own (target reached, no pair left, min frequency).

    ``model`` is the picklable recipe of the result; ``tokenizer`` is built from it by
    :func:`~bpe_engine.training.runner.run_training` on the consumer's side (a tokenizer holds
    caches and compiled patterns and does not cross a process boundary). A replay of a loaded
    tokenizer's merges (:mod:`~bpe_engine.training.runner.replay`) has no recipe: its ``model`` is
    None and its ``tokenizer`` arrives built."""

    done: int
    seconds: float
    notes: tuple[str, ...]
    model: ModelState | None
    tokenizer: Tokenizer | None = None


@dataclass(frozen=True, slots=True)
class Cancelled:
    """The consumer asked the run to stop; ``done`` steps had been sent."""

    done: int


@dataclass(frozen=True, slots=True)
class Failed:
    """The run stopped on an error; ``message`` is shown to the user as it is, under the setting
    ``field`` names when it names one (a :class:`~bpe_engine.errors.ConfigError`'s field)."""

    message: str
    field: str | None = None


Event = Union[Counting, Started, Steps, Finished, Cancelled, Failed]
"""Anything a run yields."""
