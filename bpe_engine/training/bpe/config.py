"""The BPE trainer's settings: everything that decides the merges, checked once, up front."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ...choices import TIE_BREAKS, VOCAB_SIZE_MAX, ModelName, TieBreak, values
from ...errors import ConfigError
from ...pretokenizers import GPT2, EndOfWord, PreTokenizer, with_end_of_word
from ..word_table import MAX_SYMBOL_ID

MAX_VOCAB_SIZE = VOCAB_SIZE_MAX


def check_vocab_size(size: int) -> None:
    """The one bound every trainer puts on the vocabulary size (its message names no API field)."""
    if not 1 <= size <= MAX_VOCAB_SIZE:
        raise ConfigError(f"the vocabulary size must be between 1 and {MAX_VOCAB_SIZE:,}, got {size:,}", field="vocab_size")

assert MAX_VOCAB_SIZE <= MAX_SYMBOL_ID  # symbols are characters (bpe_engine.training.word_table): ids below U+10FFFF

DEFAULT_MAX_TOKEN_LENGTH = 16
"""Tokens stop growing at 16 characters (bytes for byte-level), SentencePiece's default.

Without a limit a file of one repeated character trains one token as long as the file (and
encoding it is slow); natural text seldom has useful tokens longer than this. ``None`` lifts it.
"""


@dataclass(frozen=True)
class BpeTrainerConfig:
    """Everything that decides the merges. Same config + same corpus -> the same merges.

    ``vocab_size`` counts special tokens, alphabet and merged tokens (HF's meaning).
    ``initial_alphabet`` (byte-level): all 256 byte characters, or only those in the corpus.
    ``limit_alphabet`` (character-level): keep that many characters, the most frequent; among
    equal counts the smaller code point stays (HF leaves that tie to an unstable sort). Dropped
    characters are skipped inside words, as HF does.
    ``min_frequency``: stop when the best pair occurs fewer times.
    ``max_token_length``: a merge may not make a token this long or longer -- HF's rule, in
    characters (bytes for byte-level), ``</w>`` not counted; default
    :data:`DEFAULT_MAX_TOKEN_LENGTH`, ``None`` for no limit.
    ``tie_break``: ``hf``, ``lexicographic``, ``greatest`` or ``first-seen`` (:mod:`.tie_breaks`).
    ``end_of_word``: ``attached`` (``l o w</w>``) or ``separate`` (``l o w </w>``) -- how the
    pre-tokenizer's ``</w>`` marks word ends; ``None`` keeps the pre-tokenizer's own. Setting it
    replaces ``pre_tokenizer`` by its variant, so the trained tokenizer encodes the same way.
    ``unk_token`` (character-level): a special token that stands for characters the alphabet
    lacks when encoding; added after ``special_tokens`` when it is not one of them.
    """

    model: ClassVar[ModelName] = "bpe"
    continuing_prefix: ClassVar[str | None] = None  # HF's BPE may have one; this trainer makes none

    vocab_size: int
    byte_level: bool = True
    pre_tokenizer: PreTokenizer = GPT2
    initial_alphabet: Literal["all", "seen"] = "all"
    limit_alphabet: int | None = None
    min_frequency: int = 0
    special_tokens: tuple[str, ...] = ()
    max_token_length: int | None = DEFAULT_MAX_TOKEN_LENGTH
    tie_break: TieBreak = "hf"
    end_of_word: EndOfWord | None = None
    unk_token: str | None = None

    def __post_init__(self) -> None:
        check_vocab_size(self.vocab_size)
        if self.tie_break not in values(TIE_BREAKS):
            raise ConfigError(
                f"unknown tie-break {self.tie_break!r}; choose one of: {', '.join(values(TIE_BREAKS))}", field="tie_break"
            )
        if self.initial_alphabet not in ("all", "seen"):
            raise ConfigError(f"initial_alphabet must be 'all' or 'seen', got {self.initial_alphabet!r}")
        if self.limit_alphabet is not None and (self.byte_level or self.limit_alphabet < 0):
            raise ConfigError("limit_alphabet is for character-level training and must be >= 0")
        if self.max_token_length is not None and self.max_token_length < 1:
            raise ConfigError(
                f"the longest token must be at least 1 (or no limit), got {self.max_token_length}", field="max_token_length"
            )
        if self.min_frequency < 0:
            raise ConfigError(f"the minimum frequency must be 0 or more, got {self.min_frequency}", field="min_frequency")
        if isinstance(self.special_tokens, str):
            raise ConfigError("special_tokens must be a sequence of strings, not one string")
        specials = tuple(self.special_tokens)
        if any(not isinstance(s, str) or not s for s in specials):
            raise ConfigError("special tokens must be non-empty strings")
        if self.unk_token is not None:
            if self.byte_level:
                raise ConfigError(
                    "an unknown token is for character-level training: a byte-level model spells every byte, "
                    "so nothing is unknown (train character-level, or drop the unknown token)", field="unk_token"
                )
            if not self.unk_token:
                raise ConfigError("the unknown token must be non-empty text such as '<unk>'", field="unk_token")
            if self.unk_token not in specials:
                specials += (self.unk_token,)
        object.__setattr__(self, "special_tokens", specials)
        if self.end_of_word is not None:
            object.__setattr__(self, "pre_tokenizer", with_end_of_word(self.pre_tokenizer, self.end_of_word))
        if self.byte_level and self.pre_tokenizer.end_of_word_suffix is not None:
            raise ConfigError(
                f"the {self.pre_tokenizer.name} pre-tokenizer marks word ends on characters (</w>): "
                "train it character-level, or pick a byte-level pre-tokenizer such as gpt2", field="pre_tokenizer"
            )

    @property
    def front_end(self) -> PreTokenizer:
        """What cuts the corpus into the words this trainer counts."""
        return self.pre_tokenizer
