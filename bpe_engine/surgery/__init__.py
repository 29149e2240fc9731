"""Surgery on real tokenizers: extend a base BPE with merges learnt on a corpus, prune it, force
strings into single tokens, add tokens -- every base id kept, every result loadable by the base's
own library (:mod:`.base`, :mod:`.extend`)."""

from __future__ import annotations

from .base import BpeBase, bpe_base
from .extend import ExtendConfig, Extension, extend, extended_tokenizer

__all__ = ["BpeBase", "ExtendConfig", "Extension", "bpe_base", "extend", "extended_tokenizer"]
