"""PickyBPE's settings, with ``pickybpe-bauwenst`` 1.3.1's conventions as the defaults.

The two reference implementations and the paper (Chizhov et al., EMNLP 2024) disagree on two
details of the removal test, so both are settings:

``ios_frequency`` -- what the intersection-over-self counts as the part's uses inside the new token:
    ``child`` (1.3.1): the new token's whole frequency, ``f(xy) / (f(x) + f(xy))`` with ``f(x)`` the
    part's frequency left after the merge; ``pair`` (the paper's ``f(x, y) / f(x)``, and the
    original ``pchizhov/picky_bpe`` code): this merge's pair frequency over the part's frequency
    before it. They differ when the merge makes a token that already had a frequency (a restored or
    reused one).
``ios_compare`` -- ``above`` (both codes: IoS > τ) or ``at-least`` (the paper's IoS ≥ τ).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ...choices import PICKY_TIE_BREAKS, TieBreak
from ...errors import ConfigError
from ...pretokenizers import WHITESPACE, PreTokenizer
from ..bpe.config import check_vocab_size

IosFrequency = Literal["child", "pair"]
IosCompare = Literal["above", "at-least"]

PICKY_SPECIALS = ("[PAD]", "[UNK]", "[BOS]", "[EOS]")
"""1.3.1's special tokens, at ids 0-3 (``[UNK]`` stands for the characters the coverage drops)."""


@dataclass(frozen=True)
class PickyConfig:
    """Everything that decides a PickyBPE run (module docstring for the two IoS settings).

    ``vocab_size`` counts the specials, the alphabet and the merged tokens still present, as 1.3.1
    counts it: every merge adds one (even one that makes a token already present), every removal
    takes one away. ``character_coverage``: the rarest characters covering the last
    ``1 - coverage`` of the corpus are dropped and read as ``[UNK]`` (SentencePiece's rule, as 1.3.1
    applies it). ``max_token_length``: no pair whose merged string would be longer (1.3.1: 64).
    ``tie_break``: 1.3.1 leaves ties to its heap; here they follow a rule of
    :data:`PICKY_TIE_BREAKS` (``hf``: the smaller ids).
    """

    model: ClassVar[str] = "picky"
    byte_level: ClassVar[bool] = False
    continuing_prefix: ClassVar[None] = None

    vocab_size: int
    tau: float = 0.9
    ios_frequency: IosFrequency = "child"
    ios_compare: IosCompare = "above"
    character_coverage: float = 0.9999
    max_token_length: int = 64
    tie_break: TieBreak = "hf"

    def __post_init__(self) -> None:
        check_vocab_size(self.vocab_size)
        if not 0.0 <= self.tau <= 1.0:
            raise ConfigError(f"the IoS threshold τ must be between 0 and 1, got {self.tau}", field="tau")
        if self.ios_frequency not in ("child", "pair"):
            raise ConfigError(f"ios_frequency must be 'child' or 'pair', got {self.ios_frequency!r}", field="ios_frequency")
        if self.ios_compare not in ("above", "at-least"):
            raise ConfigError(f"ios_compare must be 'above' or 'at-least', got {self.ios_compare!r}", field="ios_compare")
        if not 0.0 < self.character_coverage <= 1.0:
            raise ConfigError(
                f"the character coverage must be above 0 and at most 1, got {self.character_coverage}", field="character_coverage"
            )
        if self.max_token_length < 2:
            raise ConfigError(f"the longest token must be at least 2 characters, got {self.max_token_length}", field="max_token_length")
        if self.tie_break not in PICKY_TIE_BREAKS:
            raise ConfigError(
                f"PickyBPE breaks ties by {', '.join(PICKY_TIE_BREAKS)}; {self.tie_break!r} orders pairs by where they "
                "first occur, which a split moves", field="tie_break"
            )

    @property
    def front_end(self) -> PreTokenizer:
        """Words cut at whitespace, ``▁`` in front (the lone ``▁`` of extra spaces is dropped by the trainer)."""
        return WHITESPACE

    def passes(self, ios: float) -> bool:
        """Whether an intersection-over-self removes the part."""
        return ios >= self.tau if self.ios_compare == "at-least" else ios > self.tau
