"""The one protocol of what the Train tab steps through, whatever the trainer.

A trainer's registration makes its stepper (``stepper`` hook): BPE and WordPiece replay their merges
over the corpus (:class:`~bpe_engine.explore.stepper.Stepper`), Unigram segments every line with the
model of step k (:class:`~bpe_engine.explore.unigram_stepper.UnigramStepper`), a new trainer brings
its own. The app feeds each batch of steps (:meth:`TrainStepper.feed`), moves the step, and draws
from what the stepper declares -- never from its class:

* ``explains``: what the step detail draws below a step's title and why -- ``"merges"``: the words
  the merge rewrote before → after and the tree of merges that built it (the merge stepper's
  :class:`MergeExplainer` methods); ``"lines"``: the stepper's own :meth:`~TrainStepper.detail`
  lines, plain text with roles the front end colours (:data:`DetailRole`);
* ``models_per_step``: the stepper makes the model of every step (:meth:`~TrainStepper.tokenizer_at`:
  Unigram); otherwise the model at step k is the finished tokenizer's first k merges.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:  # pragma: no cover
    from ..corpus.block_text import Text
    from ..training.steps import TrainingStep
    from ..types import Tokenizer
    from .merge_tree import MergeNode
    from .word_changes import StepChange

Explains = Literal["merges", "lines"]
DetailRole = Literal["title", "why", "value", "note", "warning", "label", "plain", "curve", "curve2"]
"""What a span of a step's detail is, for the front end to colour: ``value`` the deciding number,
``note`` a quiet aside, ``warning`` what deserves a look (a tie, dropped characters), ``curve`` /
``curve2`` two sparklines."""
DetailLine = tuple[tuple[str, DetailRole], ...]


class TrainStepper(Protocol):
    """The corpus at step k of a run (k = 0: before the first step)."""

    @property
    def explains(self) -> Explains: ...

    @property
    def models_per_step(self) -> bool: ...

    @property
    def initial_token_count(self) -> int | None:
        """Tokens of the corpus before the first step (None: no model before it)."""
        ...

    @property
    def step(self) -> int: ...

    @property
    def available(self) -> int:
        """Steps fed so far (how far k may go)."""
        ...

    @property
    def characters(self) -> int: ...

    @property
    def token_count(self) -> int | None:
        """Tokens of the whole corpus at this step, where known."""
        ...

    def feed(self, steps: Sequence[TrainingStep]) -> None:
        """The steps of the run that arrived since the last call (in order)."""
        ...

    def seek(self, step: int, *, until: float | None = None) -> bool:
        """Go to ``step`` (clamped); False when ``until`` (a clock time) came first (call again)."""
        ...

    def ready(self) -> bool:
        """Whether the step can be drawn now (else :meth:`prepare` it in a worker first)."""
        ...

    def prepare(self) -> None:
        """Make what drawing the step needs (slow: off the UI thread)."""
        ...

    def window(self, text: Text, start: int, end: int) -> Iterator[tuple[int, int, tuple[str, ...]]]:
        """``(start, end, tokens)`` of each piece of ``text[start:end]`` at this step."""
        ...

    def highlight(self) -> str | None:
        """The token the step made (the view marks it), if one."""
        ...

    def focus(self) -> int | None:
        """Where the step changed the corpus (the view scrolls there), if one place."""
        ...

    def tokenizer_at(self, step: int) -> Tokenizer | None:
        """The model after ``step`` steps, when ``models_per_step`` (else None)."""
        ...

    def detail(self) -> tuple[DetailLine, ...]:
        """The current step's story below its title and why, when ``explains == "lines"``."""
        ...

    @property
    def merges_at(self) -> Callable[[int], int] | None:
        """How many of the model's merges stand at step k, when a step may stand for several (an
        extended run's first step: the base's whole merge list, shown as one collapsed row); None:
        step k is merge k. A pure function of immutable data: the app's state hands it to workers."""
        ...

    @property
    def initial_types(self) -> Callable[[], Mapping[str, int]] | None:
        """Each token's count before the first step, as a call safe from any thread, where the
        stepper knows it (merges: :class:`~bpe_engine.explore.initial_types.InitialTypes`)."""
        ...

    def story(self, piece: str) -> Any | None:
        """A piece's story so far (when it entered, how its score moved, how it left) as a copy
        of its own -- safe from any thread -- or None (a stepper that keeps no stories)."""
        ...


@dataclass(frozen=True, eq=False)
class StepModels:
    """A read-only view of a stepper that makes the model of every step (``models_per_step``), for
    the state the app hands to other tabs and their workers: it answers the model after step k
    (k up to ``available``, the steps fed when the view was made) and a piece's story, each from
    the stepper's lock-guarded reads -- never the stepper itself, which the UI thread feeds.
    ``before`` says why step 0 has no model ("no model before the seeds"). Two views of one
    stepper are equal: the run did not change."""

    _source: TrainStepper = field(repr=False)
    available: int
    before: str = "no model before the first step"

    def tokenizer_at(self, step: int) -> Tokenizer | None:
        return self._source.tokenizer_at(max(0, min(step, self.available)))

    def story(self, piece: str) -> Any | None:
        return self._source.story(piece)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StepModels) and other._source is self._source

    def __hash__(self) -> int:
        return id(self._source)


class MergeExplainer(Protocol):
    """What a stepper that ``explains == "merges"`` offers the step detail."""

    word_texts: Sequence[str]

    def last_change_top(self, limit: int) -> StepChange | None: ...

    def merge_at(self, rank: int) -> tuple[str, str, str]: ...

    def derivation(self, token: str, *, before: int | None = None) -> MergeNode: ...

    def step_at(self, rank: int) -> TrainingStep | None:
        """The step of merge ``rank`` as the trainer yielded it (its why), if it was fed one."""
        ...


__all__ = ["DetailLine", "DetailRole", "Explains", "MergeExplainer", "StepModels", "TrainStepper"]
