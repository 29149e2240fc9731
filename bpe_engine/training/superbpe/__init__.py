"""SuperBPE (Liu et al. 2025): BPE to a transition point, then merges across spaces (superwords).

* :mod:`.training` -- :class:`SuperBpeTraining`: stage 1 our BPE trainer, stage 2 the same loop
  resumed from stage 1's tokens with the stage-2 pre-tokenizer and SuperBPE's two rules;
* :mod:`.config` -- the transition, the stage-2 pre-tokenizer (:data:`STAGE2_PATTERN`), the rules.

Names are imported on first use: looking the trainer up (:mod:`bpe_engine.training.registry`)
imports only its declaration (:mod:`.spec`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "STAGE2": "config",
    "STAGE2_PATTERN": "config",
    "SuperBpeConfig": "config",
    "SuperBpeTraining": "training",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:  # pragma: no cover
    from .config import STAGE2, STAGE2_PATTERN, SuperBpeConfig
    from .training import SuperBpeTraining
