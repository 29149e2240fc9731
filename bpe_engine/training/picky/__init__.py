"""PickyBPE (Chizhov et al., EMNLP 2024): BPE that removes the parts a merge used up.

* :mod:`.training` -- :class:`PickyTraining`, the BPE loop plus the removal test after each merge;
* :mod:`.setup` -- words, the covered alphabet and ids, as ``pickybpe-bauwenst`` 1.3.1 makes them;
* :mod:`.steps` -- the events: merge, split (with its why), restore;
* :mod:`.config` -- the settings, 1.3.1's conventions as the defaults.

Names are imported on first use: looking the trainer up (:mod:`bpe_engine.training.registry`)
imports only its declaration (:mod:`.spec`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "PICKY_SPECIALS": "config",
    "PickyConfig": "config",
    "PickyEvent": "steps",
    "RestoreStep": "steps",
    "SplitStep": "steps",
    "PickyTraining": "training",
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
    from .config import PICKY_SPECIALS, PickyConfig
    from .steps import PickyEvent, RestoreStep, SplitStep
    from .training import PickyTraining
