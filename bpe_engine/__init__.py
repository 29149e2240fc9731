"""bpe_engine: the UI-free library behind bpe-explorer.

Pre-tokenizers, the GPT-2 byte table, an incremental BPE trainer that yields one merge at a time,
WordPiece, encoders/decoders exact against tiktoken and Hugging Face, tokenizer files, and the
inspection/comparison data the app draws. It never imports textual or rich.

>>> from bpe_engine import BpeTrainerConfig, train, load_reference
>>> result = train(["low lower lowest newer wider"], BpeTrainerConfig(vocab_size=262))
>>> [(s.left, s.right) for s in result.steps][:2]  # count 3 each; tie -> smaller ids
[('e', 'r'), ('l', 'o')]
>>> load_reference("gpt2").encode("hello world")
[31373, 995]

Names are imported lazily on first use, so ``import bpe_engine`` costs nothing until needed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS: dict[str, str] = {
    # values that cross into the app
    "MergeStep": "training.steps",
    "Encoding": "types",
    "Tokenizer": "types",
    "SpecialMode": "types",
    "DEFAULT_SPECIAL_MODE": "types",
    "UNKNOWN_ID": "types",
    # errors
    "BpeEngineError": "errors",
    "ConfigError": "errors",
    "CorpusError": "errors",
    "SpecialTokenError": "errors",
    "ReferenceDataMissing": "errors",
    "TokenizerFileError": "errors",
    "UnknownSymbolError": "errors",
    # pre-tokenizers and bytes
    "PreTokenizer": "pretokenizers",
    "get_pretokenizer": "pretokenizers",
    "split_specials": "pretokenizers",
    "bytes_to_token_str": "core.byte_table",
    "token_str_to_bytes": "core.byte_table",
    # corpus and training
    "read_documents": "corpus",
    "count_words": "corpus",
    "corpus_stats": "corpus",
    "WordCounts": "corpus",
    "BpeTrainerConfig": "training.bpe",
    "BpeTraining": "training.bpe",
    "train": "training.bpe",
    "Stepper": "explore.stepper",
    # tokenizers and files
    "BpeTokenizer": "bpe.model",
    "load_reference": "catalog.openai",
    "REFERENCE_NAMES": "catalog.openai",
    "load_tokenizer": "registry",
    "available_tokenizers": "registry",
    "save_tokenizer": "formats",
    # inspection and comparison
    "compare": "compare",
    "token_details": "inspect",
    "partial_groups": "inspect",
    "stream_decode": "inspect",
    "merge_tree_for": "bpe.merge_tree",
    "visible_text": "display",
    "token_label": "display",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'bpe_engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from .bpe.merge_tree import merge_tree_for
    from .bpe.model import BpeTokenizer
    from .catalog.openai import REFERENCE_NAMES, load_reference
    from .compare import compare
    from .core.byte_table import bytes_to_token_str, token_str_to_bytes
    from .corpus import WordCounts, corpus_stats, count_words, read_documents
    from .display import token_label, visible_text
    from .errors import (
        BpeEngineError,
        ConfigError,
        CorpusError,
        ReferenceDataMissing,
        SpecialTokenError,
        TokenizerFileError,
        UnknownSymbolError,
    )
    from .explore.stepper import Stepper
    from .formats import save_tokenizer
    from .inspect import partial_groups, stream_decode, token_details
    from .pretokenizers import PreTokenizer, get_pretokenizer, split_specials
    from .registry import available_tokenizers, load_tokenizer
    from .training.bpe import BpeTrainerConfig, BpeTraining, train
    from .training.steps import MergeStep
    from .types import DEFAULT_SPECIAL_MODE, UNKNOWN_ID, Encoding, SpecialMode, Tokenizer
