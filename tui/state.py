"""The one typed state the app pushes down to its panes: corpus, merges, tokenizer, step k.

Panes never read the app's attributes or another tab's widgets; the app sets ``pane.state`` (on
the visible pane only -- a hidden pane does no work) and the pane redraws from it. The value is
frozen and its parts are immutable (:class:`~tui.train.step_log.StepLog`, a finished
tokenizer that is never mutated), so a pane may hand it to a worker thread as it is.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import cast

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

    @property
    def merge_count(self) -> int:
        """Merges of the finished model (0 before one exists, or for a model without a merge list)."""
        tok = self.tokenizer
        if tok is None or not tok.capabilities.replays_merges:
            return 0
        return cast(ReplaysMerges, tok).n_merges

    def tokenizer_at(self, k: int | None = None) -> Tokenizer | None:
        """The model with its first ``k`` merges (default: the Train step); a few recent prefix
        views are kept, so typing in Compare does not rebuild one per keystroke."""
        base = self.tokenizer
        if base is None or not base.capabilities.replays_merges:
            return base
        prefix = cast(ReplaysMerges, base).with_merge_prefix
        k = max(0, min(self.step if k is None else k, self.merge_count))
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
