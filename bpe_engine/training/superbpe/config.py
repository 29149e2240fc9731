"""SuperBPE's settings: the transition point, the two pre-tokenizers and the two rules of stage 2.

Liu et al., "SuperBPE: Space Travel for Language Models" (2025). Stage 1 is BPE with the usual
pre-tokenizer (words never cross a space) for ``transition`` merges; stage 2 goes on from there
with a pre-tokenizer that only isolates digit runs, runs of two or more punctuation characters and
trailing spaces (:data:`STAGE2_PATTERN`, the reference's ``extend_tokenizer.sh``), so merges may
cross single spaces and make *superwords*. The reference's trainer (its ``tokenizers`` fork) refuses
two kinds of token in stage 2, here ``colon_rule`` and ``max_words``: one holding ``:`` followed by a
space (``Ġ``), and one of more than four words (pieces between ``Ġ``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ...choices import TieBreak
from ...errors import ConfigError
from ...pretokenizers import GPT2, PreTokenizer
from ..bpe.config import BpeTrainerConfig, check_vocab_size

STAGE2_PATTERN = r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]{2,}[\r\n/]*| +(?!\S)"
"""SuperBPE's stage-2 regex (``scripts/extend_tokenizer.sh``), used as HF's ``Split(..., "isolated")``:
the matches are pieces, and so is the text between them."""

STAGE2 = PreTokenizer(
    "superbpe-stage2", pattern=STAGE2_PATTERN, keeps_unmatched=True,
    description="SuperBPE stage 2: digits, punctuation runs and trailing spaces apart; words may cross single spaces",
)


@dataclass(frozen=True)
class SuperBpeConfig:
    """``vocab_size`` counts every token; ``transition``: the merges of stage 1 (0: stage 2 from bytes).

    ``pre_tokenizer`` is stage 1's; ``stage2`` stage 2's (the final tokenizer's). ``max_token_length``:
    none by default, as the reference (a superword is long: ``Ġin the United States`` is 21 bytes).
    ``initial_alphabet``: all 256 bytes (every text can be encoded), or only those seen (HF's default,
    the reference's setting).
    """

    model: ClassVar[str] = "superbpe"
    byte_level: ClassVar[bool] = True
    continuing_prefix: ClassVar[None] = None

    vocab_size: int
    transition: int = 0
    pre_tokenizer: PreTokenizer = GPT2
    stage2: PreTokenizer = STAGE2
    colon_rule: bool = True
    max_words: int | None = 4
    max_token_length: int | None = None
    tie_break: TieBreak = "hf"
    special_tokens: tuple[str, ...] = ()
    initial_alphabet: Literal["all", "seen"] = "all"

    def __post_init__(self) -> None:
        check_vocab_size(self.vocab_size)
        if self.transition < 0:
            raise ConfigError(f"the transition point must be 0 or more merges, got {self.transition:,}", field="transition")
        if self.max_words is not None and self.max_words < 1:
            raise ConfigError(f"the most words in a token must be at least 1 (or no limit), got {self.max_words}", field="max_words")
        self.stage_config(1)  # the BPE settings check themselves

    @property
    def front_end(self) -> PreTokenizer:
        """Stage 2's pre-tokenizer: the final model's, and the cut the Train tab replays the merges over
        (stage 1's merges replayed over stage-2 words are stage 2's starting point)."""
        return self.stage2

    def stage_config(self, stage: int) -> BpeTrainerConfig:
        """The BPE trainer's settings of a stage (stage 1 never stops for the size: it stops at the transition)."""
        return BpeTrainerConfig(
            vocab_size=self.vocab_size, byte_level=True, pre_tokenizer=self.pre_tokenizer if stage == 1 else self.stage2,
            initial_alphabet=self.initial_alphabet, max_token_length=self.max_token_length, tie_break=self.tie_break,
            special_tokens=self.special_tokens,
        )

    def allows(self, token: str) -> bool:
        """Whether stage 2 may make ``token`` (GPT-2 byte characters: ``Ġ`` is a space)."""
        if self.colon_rule and ":Ġ" in token:
            return False
        return self.max_words is None or sum(1 for part in token.split("Ġ") if part) <= self.max_words
