"""PickyBPE (Chizhov et al., EMNLP 2024): BPE that removes the parts a merge used up.

* :mod:`.training` -- :class:`PickyTraining`, the BPE loop plus the removal test after each merge;
* :mod:`.setup` -- words, the covered alphabet and ids, as ``pickybpe-bauwenst`` 1.3.1 makes them;
* :mod:`.steps` -- the events: merge, split (with its why), restore;
* :mod:`.config` -- the settings, 1.3.1's conventions as the defaults.
"""

from .config import PICKY_SPECIALS, PickyConfig
from .steps import PickyEvent, RestoreStep, SplitStep
from .training import PickyTraining

__all__ = ["PICKY_SPECIALS", "PickyConfig", "PickyEvent", "PickyTraining", "RestoreStep", "SplitStep"]
