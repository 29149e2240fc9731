"""The plain data a BPE tokenizer file holds, between the file formats and :class:`BpeTokenizer`.

Every loader in this package produces a :class:`BpeSpec` and every saver consumes one, so the
formats are tested as data and only :meth:`BpeSpec.build` knows how the model class is made.
``vocab`` holds the ordinary tokens (model alphabet: ``Ġthe`` for byte-level) and ``special_tokens``
the specials, kept apart because only ordinary tokens take part in merges.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..bpe.byte_table import CHAR_TO_BYTE, is_byte_token_str, token_str_to_bytes
from ..bpe.normalizer import NormalForm
from ..errors import TokenizerFileError
from ..pretokenizers import BUILTIN, PreTokenizer, custom

if TYPE_CHECKING:  # the model module imports nothing from here; keep the dependency one-way
    from ..bpe.model import BpeTokenizer
    from ..types import ReplaysMerges


@dataclass
class BpeSpec:
    """A BPE model as files describe it: ordinary vocab, merges in rank order, specials, settings."""

    name: str
    vocab: dict[str, int]
    merges: list[tuple[str, str]]
    pre_tokenizer: PreTokenizer
    byte_level: bool
    special_tokens: dict[str, int] = field(default_factory=dict)
    unk_token: str | None = None
    rank_table: bool = False
    """Encode the tiktoken way (whole piece first, then lowest rank of the concatenated bytes;
    ids are ranks) -- HF's ``ignore_merges`` -- instead of applying merges in list order."""
    normalizer: NormalForm | None = None
    """A Unicode normal form the text is put in first (Qwen's NFC; HF's ``NFC`` normalizer)."""

    def full_vocab(self) -> dict[str, int]:
        """Ordinary tokens and specials together (what vocab.json and HF's model.vocab list)."""
        return {**self.vocab, **self.special_tokens}

    def validate(self, path: str | Path) -> None:
        """Byte-level tokens must use the byte table; ids must not collide with specials."""
        if self.byte_level and not set("".join(self.vocab)) <= CHAR_TO_BYTE.keys():
            for token in self.vocab:
                if not is_byte_token_str(token):
                    raise TokenizerFileError(
                        path,
                        f"token {token!r} is not in GPT-2's byte alphabet, but the model is byte-level; "
                        "mark it as a special/added token or load the file as character-level",
                    )
        if self.rank_table and not self.byte_level:
            raise TokenizerFileError(path, "ignore_merges (a tiktoken-style rank table) needs a byte-level model")
        ids = {i: t for t, i in self.vocab.items()}
        for token, i in self.special_tokens.items():
            if i in ids and ids[i] != token:
                raise TokenizerFileError(
                    path, f"special token {token!r} has id {i}, which ordinary token {ids[i]!r} already uses"
                )

    def build(self) -> BpeTokenizer:
        """The :class:`~bpe_engine.bpe.model.BpeTokenizer` this spec describes."""
        from ..bpe.model import BpeTokenizer

        if self.rank_table:
            return BpeTokenizer.from_ranks(
                name=self.name,
                mergeable_ranks={token_str_to_bytes(t): i for t, i in self.vocab.items()},
                pre_tokenizer=self.pre_tokenizer,
                special_tokens=dict(self.special_tokens) or None,
                normalizer=self.normalizer,
            )
        vocab = dict(self.vocab)
        if self.unk_token in self.special_tokens:  # the encoder looks the unknown token up among the ids
            vocab.setdefault(self.unk_token, self.special_tokens[self.unk_token])
        return BpeTokenizer(
            name=self.name,
            vocab=vocab,
            merges=list(self.merges),
            pre_tokenizer=self.pre_tokenizer,
            byte_level=self.byte_level,
            special_tokens=dict(self.special_tokens) or None,
            unk_token=self.unk_token,
            normalizer=self.normalizer,
        )


def spec_from_tokenizer(tokenizer: ReplaysMerges) -> BpeSpec:
    """Read a BpeTokenizer's attributes into a spec (specials split out of the vocab)."""
    specials = tokenizer.special_tokens
    vocab = {t: i for t, i in tokenizer.vocab.items() if t not in specials}
    return BpeSpec(
        name=tokenizer.name,
        vocab=vocab,
        merges=[(left, right) for left, right in tokenizer.merges],  # tuples, whatever sequences the model keeps
        pre_tokenizer=tokenizer.pre_tokenizer,
        byte_level=tokenizer.capabilities.byte_level,
        special_tokens=specials,
        unk_token=tokenizer.unk_token,
        rank_table=tokenizer.capabilities.merge_order == "ranks",
        normalizer=tokenizer.capabilities.normalizer,
    )


def split_specials_from_vocab(vocab: Mapping[str, int], specials: Mapping[str, int]) -> dict[str, int]:
    """``vocab`` without the special tokens (files often list them in both places)."""
    return {t: i for t, i in vocab.items() if t not in specials}


def pretokenizer_from_settings(path: str | Path, name: str | None, pattern: str | None) -> PreTokenizer:
    """Rebuild a pre-tokenizer from a saved name and pattern.

    A built-in name whose saved pattern still matches gives the built-in object; a changed or custom
    pattern is honoured as a user regex, so the file's behaviour wins over a renamed built-in.
    """
    if name in BUILTIN and (pattern is None or BUILTIN[name].pattern == pattern):
        return BUILTIN[name]
    if pattern:
        return custom(pattern)
    raise TokenizerFileError(
        path, f"unknown pre-tokenizer {name!r} without a pattern; expected one of {', '.join(BUILTIN)} or 'regex'"
    )


def pretokenizer_for_pattern(pattern: str) -> PreTokenizer:
    """The built-in pre-tokenizer using exactly ``pattern``, else a user regex with it."""
    for pre in BUILTIN.values():
        if pre.pattern == pattern and pre.end_of_word_suffix is None:
            return pre
    return custom(pattern)
