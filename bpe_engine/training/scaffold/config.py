"""Scaffold-BPE's settings: BPE's, and which of the two published rules marks a scaffold.

``paper`` (Lian et al., AAAI 2025): after a merge, a part whose frequency is below the count of the
next pair to merge becomes a *scaffold*; it stays in the corpus and goes on merging, but leaves the
vocabulary; once its frequency is above the best pair's count again (pair counts fall as training
goes on) it is re-activated. ``tktkt`` (TkTkT's ``ScaffoldBPE`` trainer, a hook on ``pickybpe``'s
BPE trainer): the part is compared with the best pair *before* the merge's own count changes (the
runner-up of the merge), and a scaffold is never re-activated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from ...errors import ConfigError
from ...pretokenizers import PreTokenizer
from ..bpe.config import BpeTrainerConfig

ScaffoldVariant = Literal["paper", "tktkt"]
SCAFFOLD_VARIANTS: tuple[ScaffoldVariant, ...] = ("paper", "tktkt")


@dataclass(frozen=True)
class ScaffoldConfig:
    """``bpe``: the BPE trainer's settings (its ``vocab_size`` counts the tokens that are not
    scaffolds, so every scaffold buys one more merge). ``variant``: the rule (module docstring)."""

    model: ClassVar[str] = "scaffold"

    bpe: BpeTrainerConfig
    variant: ScaffoldVariant = "paper"
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.variant not in SCAFFOLD_VARIANTS:
            raise ConfigError(f"the scaffold rule must be one of {', '.join(SCAFFOLD_VARIANTS)}, got {self.variant!r}", field="variant")

    @property
    def vocab_size(self) -> int:
        return self.bpe.vocab_size

    @property
    def byte_level(self) -> bool:
        return self.bpe.byte_level

    @property
    def front_end(self) -> PreTokenizer:
        return self.bpe.front_end

    @property
    def continuing_prefix(self) -> None:
        return None
