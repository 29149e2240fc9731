"""SuperBPE (Liu et al. 2025): BPE to a transition point, then merges across spaces (superwords).

* :mod:`.training` -- :class:`SuperBpeTraining`: stage 1 our BPE trainer, stage 2 the same loop
  resumed from stage 1's tokens with the stage-2 pre-tokenizer and SuperBPE's two rules;
* :mod:`.config` -- the transition, the stage-2 pre-tokenizer (:data:`STAGE2_PATTERN`), the rules.
"""

from .config import STAGE2, STAGE2_PATTERN, SuperBpeConfig
from .training import SuperBpeTraining

__all__ = ["STAGE2", "STAGE2_PATTERN", "SuperBpeConfig", "SuperBpeTraining"]
