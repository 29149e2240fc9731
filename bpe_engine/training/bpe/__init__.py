"""BPE training, split along the steps of Hugging Face's ``BpeTrainer.do_train``.

Read in this order (each file opens with what it does and why):

* :mod:`.training` -- :class:`BpeTraining`, the merge loop, as numbered steps;
* :mod:`.setup` -- steps 1-3: special tokens, alphabet, ``</w>`` symbols, words as symbol strings;
* :mod:`bpe_engine.training.word_table` -- the words table and its one operation, ``merge(pair) -> changes``;
* :mod:`.pair_index` -- step 4 and the bookkeeping of step 5: pair counts and a lazy heap;
* :mod:`.tie_breaks` -- the tie-break rules (``hf``, ``lexicographic``, ``greatest``, ``first-seen``) as small
  strategy objects, with HF's u64 quirk;
* :mod:`.config` -- the settings, checked up front.

The naive trainer that all of this is tested against is :mod:`bpe_engine.training.naive_bpe`.
"""

from .config import DEFAULT_MAX_TOKEN_LENGTH, MAX_VOCAB_SIZE, BpeTrainerConfig
from .training import BpeTraining, TrainResult, tokenizer_from_state, train

__all__ = [
    "DEFAULT_MAX_TOKEN_LENGTH",
    "MAX_VOCAB_SIZE",
    "BpeTrainerConfig",
    "BpeTraining",
    "TrainResult",
    "tokenizer_from_state",
    "train",
]
