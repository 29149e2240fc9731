"""The Train tab's stepper of an extension: the corpus starts as the base's tokens, and step k is the
base plus the first k new merges.

It is the merge :class:`~bpe_engine.explore.stepper.Stepper` (the new merges replayed over the
words, with their why) started from the base's segmentation instead of from bytes, so the base's
100,000 merges are one block before step 1. The model at step k is not a merge prefix of the
finished model (that would cut into the base), so the stepper makes it (``models_per_step``): the
base with the new merges fed so far, a few recent ones kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, cast

from ...corpus.cut import CorpusWords
from ...explore.corpus_pieces import CorpusPieces
from ...explore.stepper import Stepper
from ...explore.word_changes import initial_symbols
from ...training.steps import MergeStep
from ..base import BpeBase
from ..extend import extended_tokenizer

_KEEP = 4


class ExtensionStepper(Stepper):
    """A :class:`Stepper` over a base's segmentation; the model of step k is the base + k merges."""

    models_per_step = True

    @classmethod
    def from_base(cls, base: BpeBase, words: CorpusWords) -> ExtensionStepper:
        encode = base.word_encoder()
        tok = base.tokenizer
        symbols: list[tuple[str, ...]] = []
        for text in words.texts:
            word = "".join(initial_symbols(text, byte_level=base.byte_level)) if base.byte_level else text
            ids = encode(word)
            symbols.append(tuple(tok.token_str(i) for i in ids) if ids is not None else tuple(initial_symbols(text, byte_level=base.byte_level)))
        stepper = cls(symbols, words.counts, [], pieces=CorpusPieces.of_cut(words), byte_level=base.byte_level)
        stepper.word_texts = words.texts
        stepper.base = base
        return stepper

    base: BpeBase
    _models: OrderedDict[int, Any]
    _models_lock: threading.Lock

    def tokenizer_at(self, step: int) -> Any:
        """The base with the first ``step`` new merges (step 0: the base itself)."""
        if not hasattr(self, "_models"):
            self._models, self._models_lock = OrderedDict(), threading.Lock()
        with self._models_lock:
            hit = self._models.get(step)
            if hit is not None:
                return hit
            fed = [cast(MergeStep, m) for m in self.merges[:step]]  # the app feeds the run's steps
        if step == 0:
            model = self.base.tokenizer
        else:
            merges = [(m.left, m.right) for m in fed]
            first = self.base.next_id
            tokens = {m.new: m.new_id for m in fed if m.new_id >= first}
            model = extended_tokenizer(self.base, merges, tokens, f"{self.base.name}+{step}")
        with self._models_lock:
            self._models[step] = model
            while len(self._models) > _KEEP:
                self._models.popitem(last=False)
        return model
