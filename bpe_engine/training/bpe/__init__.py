"""BPE training, split along the steps of Hugging Face's ``BpeTrainer.do_train``.

Read in this order (each file opens with what it does and why):

* :mod:`.training` -- :class:`BpeTraining`, the merge loop, as numbered steps;
* :mod:`.setup` -- steps 1-3: special tokens, alphabet, ``</w>`` symbols, words as symbol strings;
* :mod:`bpe_engine.training.word_table` -- the words table and its one operation, ``merge(pair) -> changes``;
* :mod:`.pair_index` -- step 4 and the bookkeeping of step 5: pair counts and a lazy heap;
* :mod:`.tie_breaks` -- the tie-break rules (``hf``, ``lexicographic``, ``greatest``, ``first-seen``) as small
  strategy objects, with HF's u64 quirk;
* :mod:`.config` -- the settings, checked up front;
* :mod:`.spec` -- the registration (options, step kinds), :mod:`.hooks` -- what it points to.

The naive trainer that all of this is tested against is :mod:`bpe_engine.training.naive_bpe`.
Names are imported on first use: looking the trainer up (:mod:`bpe_engine.training.registry`)
imports only its declaration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy_exports import lazy_getattr

_EXPORTS = {
    "DEFAULT_MAX_TOKEN_LENGTH": "config",
    "MAX_VOCAB_SIZE": "config",
    "BpeTrainerConfig": "config",
    "BpeTraining": "training",
    "TrainResult": "training",
    "tokenizer_from_state": "training",
    "train": "training",
}
__all__ = sorted(_EXPORTS)
__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())


if TYPE_CHECKING:  # pragma: no cover
    from .config import DEFAULT_MAX_TOKEN_LENGTH, MAX_VOCAB_SIZE, BpeTrainerConfig
    from .training import BpeTraining, TrainResult, tokenizer_from_state, train
