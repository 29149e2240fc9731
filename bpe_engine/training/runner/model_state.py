"""A trained model as a picklable recipe, and the one way the runner turns it into a tokenizer.

A tokenizer holds caches and compiled patterns and cannot be pickled, so a run (in a thread or in
the child process) ends with a model state (:class:`~bpe_engine.training.protocol.ModelState`):
:class:`MergeModelState` (the config, vocabulary and merges of a merge trainer) or
:class:`SentencePieceModelState` (a Unigram model as the bytes of its ``.model`` file), or a new
trainer's own. A state names the trainer that made it; :func:`build_tokenizer` asks that trainer's
registration to build it (the test suite checks the result id for id against each trainer's own
``tokenizer()``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...types import Tokenizer
from ..protocol import ModelState


def build_tokenizer(state: ModelState) -> Tokenizer:
    """The tokenizer of ``state``, built by the hooks of the trainer that made it."""
    from ..registry import spec_for

    return spec_for(state.model).hook("tokenizer")(state)


@dataclass(frozen=True)
class MergeModelState:
    """``config`` is the trainer's config; ``vocab`` token -> id pairs; ``merges`` in rank order."""

    config: Any
    vocab: tuple[tuple[str, int], ...]
    merges: tuple[tuple[str, str], ...]

    @property
    def model(self) -> str:
        return str(self.config.model)

    def build(self) -> Tokenizer:
        """The tokenizer of this state (BPE: a pair merged twice keeps its last rank, as in HF)."""
        return build_tokenizer(self)


@dataclass(frozen=True)
class SentencePieceModelState:
    """A trained SentencePiece model: the serialized ``ModelProto`` ``sentencepiece`` itself loads."""

    model_bytes: bytes
    name: str
    model: str = "unigram"
    tokenizer_json: str = ""
    """The same model as a Hugging Face ``tokenizer.json``, when the trainer writes one (Unigram)."""

    def build(self) -> Tokenizer:
        return build_tokenizer(self)

    def tokenizer(self) -> Tokenizer:
        """The SentencePiece tokenizer of these bytes (the ``tokenizer`` hook of a trainer that
        ends in a ``.model``)."""
        from ...sentencepiece import SentencePieceTokenizer, parse_model_bytes

        return SentencePieceTokenizer(parse_model_bytes(self.model_bytes, self.name), name=self.name)


__all__ = ["MergeModelState", "ModelState", "SentencePieceModelState", "build_tokenizer"]
