"""A trained model as a picklable recipe, and the one way the runner turns it into a tokenizer.

A tokenizer holds caches and compiled patterns and cannot be pickled, so a run (in a thread or in
the child process) ends with a model state: :class:`MergeModelState` (the config, vocabulary and
merges of BPE and WordPiece) or :class:`SentencePieceModelState` (a Unigram model as the bytes of
its ``.model`` file). ``build()`` makes the same tokenizer the trainer's own ``tokenizer()`` makes
(the test suite checks them id for id).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...types import Tokenizer


@dataclass(frozen=True)
class MergeModelState:
    """``config`` is the trainer's config; ``vocab`` token -> id pairs; ``merges`` in rank order."""

    config: Any
    vocab: tuple[tuple[str, int], ...]
    merges: tuple[tuple[str, str], ...]

    def build(self) -> Tokenizer:
        """The tokenizer of this state (BPE: a pair merged twice keeps its last rank, as in HF)."""
        vocab = dict(self.vocab)
        cfg = self.config
        if cfg.model == "wordpiece":
            from ...wordpiece.model import WordPieceTokenizer

            return WordPieceTokenizer(
                vocab,
                name=f"wordpiece-{len(vocab)}",
                unk_token=cfg.unk_token,
                continuing_prefix=cfg.continuing_prefix,
                max_input_chars_per_word=cfg.max_input_chars_per_word,
                normalizer=cfg.normalizer if cfg.pre_tokenizer is None else None,
                pre_tokenizer=cfg.pre_tokenizer,
                special_tokens=cfg.special_tokens,
            )
        from ..bpe import tokenizer_from_state

        return tokenizer_from_state(cfg, vocab, self.merges)


@dataclass(frozen=True)
class SentencePieceModelState:
    """A trained SentencePiece model: the serialized ``ModelProto`` ``sentencepiece`` itself loads."""

    model_bytes: bytes
    name: str

    def build(self) -> Tokenizer:
        from ...sentencepiece import SentencePieceTokenizer, parse_model_bytes

        return SentencePieceTokenizer(parse_model_bytes(self.model_bytes, self.name), name=self.name)


ModelState = MergeModelState | SentencePieceModelState
"""What a finished run hands over to be built into its tokenizer."""
