"""The toy's settings: a vocabulary size, the smallest pair count worth merging, and how ties go."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bpe_engine.errors import ConfigError
from bpe_engine.pretokenizers import GPT2, PreTokenizer


@dataclass(frozen=True)
class ToyConfig:
    model: ClassVar[str] = "toy"
    byte_level: ClassVar[bool] = False
    continuing_prefix: ClassVar[None] = None

    vocab_size: int = 300
    min_count: int = 2
    order: str = "first"

    def __post_init__(self) -> None:
        if self.vocab_size < 1:
            raise ConfigError(f"the vocabulary must hold at least 1 token, got {self.vocab_size}", field="vocab_size")
        if self.min_count < 1:
            raise ConfigError(f"min_count must be at least 1, got {self.min_count}", field="min_count")
        if self.order not in ("first", "last"):
            raise ConfigError(f"order must be first or last, got {self.order!r}", field="order")

    @property
    def front_end(self) -> PreTokenizer:
        return GPT2
