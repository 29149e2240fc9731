"""Scaffold-BPE (Lian et al., AAAI 2025): BPE whose stepping-stone tokens leave the vocabulary.

* :mod:`.training` -- :class:`ScaffoldTraining`: our BPE loop plus the scaffold test after each merge;
* :mod:`.model` -- encoding: every merge, then scaffolds broken back into their parts;
* :mod:`.config` -- BPE's settings and the rule: the paper's (re-activation) or TkTkT's (never).
"""

from .config import SCAFFOLD_VARIANTS, ScaffoldConfig
from .model import ScaffoldModelState, ScaffoldTokenizer
from .training import ReactivateStep, ScaffoldEvent, ScaffoldStep, ScaffoldTraining

__all__ = [
    "SCAFFOLD_VARIANTS",
    "ReactivateStep",
    "ScaffoldConfig",
    "ScaffoldEvent",
    "ScaffoldModelState",
    "ScaffoldStep",
    "ScaffoldTokenizer",
    "ScaffoldTraining",
]
