"""SentencePiece Unigram training in Python + numpy, equal to ``sentencepiece`` 0.2.1 (one thread).

* :class:`UnigramTraining` -- the trainer, as resumable steps (:mod:`.steps`);
* :class:`UnigramTrainerConfig` -- SentencePiece's option names and defaults;
* :class:`UnigramHistory` -- the model at any step and any piece's story, from the steps alone;
* :mod:`.reference` -- the slow line-by-line oracle the fast code is tested against.
"""

from .config import UnigramTrainerConfig
from .history import PieceStory, UnigramHistory
from .steps import EmStep, FinalStep, PruneStep, SeedStep, UnigramStep
from .training import UnigramTraining

__all__ = [
    "EmStep",
    "FinalStep",
    "PieceStory",
    "PruneStep",
    "SeedStep",
    "UnigramHistory",
    "UnigramStep",
    "UnigramTrainerConfig",
    "UnigramTraining",
]
