"""The one typed state the app pushes down to its panes: corpus, merges, tokenizer, step k.

Panes never read the app's attributes or another tab's widgets; the app sets ``pane.state`` (on
the visible pane only -- a hidden pane does no work) and the pane redraws from it. The value is
frozen and so are its parts -- :class:`~tui.train.step_log.StepLog` (append-only chunks), a
finished tokenizer that is never mutated, :class:`~bpe_engine.explore.train_stepper.StepModels`
(a read-only view of a stepper whose reads are lock-guarded copies) and
:class:`~bpe_engine.explore.initial_types.InitialTypes` (made from copies) -- so a pane may hand it
to a worker thread as it is: nothing in it is an object the UI thread goes on changing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import cast

from bpe_engine.errors import BpeEngineError
from bpe_engine.explore.train_stepper import StepModels
from bpe_engine.types import ReplaysMerges, Tokenizer

from .train.step_log import StepLog

_views: dict[tuple[int, int], tuple[Tokenizer, Tokenizer]] = {}
_lock = threading.Lock()
_KEEP_VIEWS = 4


@dataclass(frozen=True)
class ExplorerState:
    """What every view shows. ``step`` is the Train tab's k; ``tokenizer`` is the model with all
    ``len(merges)`` merges, None until a run finished (or a file was loaded)."""

    corpus: str = ""
    corpus_label: str = ""
    merges: StepLog = field(default_factory=StepLog)
    initial_tokens: int = 0
    tokenizer: Tokenizer | None = None
    step: int = 0
    training: bool = False
    source: str = ""  # "trained" or the label of a loaded tokenizer
    step_models: StepModels | None = None
    """A run whose stepper makes the model of every step (Unigram's): its model after each step
    and each piece's story, through a read-only view (None for a merge run)."""
    initial_types: Callable[[], Mapping[str, int]] | None = None
    """Each token type's count in the corpus before any merge (the Train stepper's
    ``initial_types``, computed once on first call): with ``merges`` it gives the Curve's Rényi
    efficiency per merge step. A call, not the counts: a worker pays for them, and only when the
    Curve is drawn."""
    merges_at: Callable[[int], int] | None = None
    """How many of the model's merges stand at step k, for a run whose steps are not one merge each
    (an extended run's first step is the base's whole merge list); None: step k is merge k. The
    stepper declares it (``TrainStepper.merges_at``), a pure function of immutable data."""

    @property
    def step_total(self) -> int:
        """How far k goes: the merges of a merge model, the steps of a run that models each step or
        whose steps stand for several merges."""
        if self.step_models is not None or (self.merges_at is not None and self.merge_count):
            return len(self.merges)
        return self.merge_count

    def missing_model(self, k: int | None = None) -> str:
        """Why :meth:`tokenizer_at` has no model, in words that say what to do."""
        models = self.step_models
        if models is not None and (self.step if k is None else k) == 0 and models.available:
            return f"step 0 of the run: {models.before} (n steps to it)"
        if self.training:
            return "training… the model appears here when the run finishes (esc stops it)"
        return "no trained model yet: ctrl+t trains one on the corpus, ctrl+l loads one"

    @property
    def merge_count(self) -> int:
        """Merges of the finished model (0 before one exists, or for a model without a merge list)."""
        tok = self.tokenizer
        if tok is None or not tok.capabilities.replays_merges:
            return 0
        return cast(ReplaysMerges, tok).n_merges

    def ours(self, k: int | None = None) -> Tokenizer:
        """:meth:`tokenizer_at`, or a BpeEngineError saying why there is no model (for a view's
        "ours" row: the reason is shown in its place)."""
        tok = self.tokenizer_at(k)
        if tok is None:
            raise BpeEngineError(self.missing_model(k))
        return tok

    def tokenizer_at(self, k: int | None = None) -> Tokenizer | None:
        """The model as it stands at step ``k`` (default: the Train step): its first ``k`` merges
        (the merges step ``k`` stands for, with ``merges_at``), or a Unigram run's model after step
        ``k``; a few recent prefix views are kept, so typing in Compare does not rebuild one per
        keystroke."""
        if self.step_models is not None:
            return self.step_models.tokenizer_at(self.step if k is None else k)
        base = self.tokenizer
        if base is None or not base.capabilities.replays_merges:
            return base
        prefix = cast(ReplaysMerges, base).with_merge_prefix
        k = self.step if k is None else k
        k = max(0, min(self.merges_at(k) if self.merges_at is not None else k, self.merge_count))
        key = (id(base), k)
        with _lock:
            hit = _views.get(key)
            if hit is not None and hit[0] is base:
                return hit[1]
        view = prefix(k)
        with _lock:
            _views[key] = (base, view)
            while len(_views) > _KEEP_VIEWS:
                _views.pop(next(iter(_views)))
        return view
