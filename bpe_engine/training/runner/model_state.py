"""A trained model as a picklable recipe, and the one way the runner turns it into a tokenizer.

A tokenizer holds caches and compiled patterns and cannot be pickled, so a run (in a thread or in
the child process) ends with a :class:`ModelState`: the trainer's config, vocabulary and merges.
:meth:`ModelState.build` makes the same tokenizer the trainer's own ``tokenizer()`` makes (the
test suite checks them id for id, BPE and WordPiece).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...types import Tokenizer


@dataclass(frozen=True)
class ModelState:
    """``config`` is the trainer's config; ``vocab`` token -> id pairs; ``merges`` in rank order."""

    model: str
    config: Any
    vocab: tuple[tuple[str, int], ...]
    merges: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, training: Any, model: str) -> ModelState:
        merges = tuple(tuple(m) for m in getattr(training, "merges", ()))
        return cls(model, training.config, tuple(training.vocab.items()), merges)  # type: ignore[arg-type]

    def build(self) -> Tokenizer:
        """The tokenizer of this state (BPE: a pair merged twice keeps its last rank, as in HF)."""
        vocab = dict(self.vocab)
        cfg = self.config
        if self.model == "wordpiece":
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
