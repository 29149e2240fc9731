"""Scaffold-BPE (Lian et al., AAAI 2025): BPE whose stepping-stone tokens leave the vocabulary.

* :mod:`.training` -- :class:`ScaffoldTraining`: our BPE loop plus the scaffold test after each merge;
* :mod:`.model` -- encoding: every merge, then scaffolds broken back into their parts;
* :mod:`.config` -- BPE's settings and the rule: the paper's (re-activation) or TkTkT's (never).

Names are imported on first use: looking the trainer up (:mod:`bpe_engine.training.registry`)
imports only its declaration (:mod:`.spec`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "SCAFFOLD_VARIANTS": "config",
    "ScaffoldConfig": "config",
    "ScaffoldModelState": "model",
    "ScaffoldTokenizer": "model",
    "ReactivateStep": "training",
    "ScaffoldEvent": "training",
    "ScaffoldStep": "training",
    "ScaffoldTraining": "training",
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
    from .config import SCAFFOLD_VARIANTS, ScaffoldConfig
    from .model import ScaffoldModelState, ScaffoldTokenizer
    from .training import ReactivateStep, ScaffoldEvent, ScaffoldStep, ScaffoldTraining
