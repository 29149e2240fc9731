"""SentencePiece Unigram training in Python + numpy, equal to ``sentencepiece`` 0.2.1 (one thread).

* :class:`UnigramTraining` -- the trainer, as resumable steps (:mod:`.steps`);
* :class:`UnigramTrainerConfig` -- SentencePiece's option names and defaults;
* :class:`UnigramHistory` -- the model at any step and any piece's story, from the steps alone;
* :mod:`.reference` -- the slow line-by-line oracle the fast code is tested against.

Names are imported on first use: the app's settings form reads :class:`UnigramTrainerConfig` at
start-up, and numpy (~75 ms of imports) should wait until a Unigram run or step needs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy_exports import lazy_getattr

_EXPORTS = {
    "UnigramTrainerConfig": "config",
    "PieceStory": "history",
    "UnigramHistory": "history",
    "EmStep": "steps",
    "FinalStep": "steps",
    "PruneStep": "steps",
    "SeedStep": "steps",
    "UnigramStep": "steps",
    "UnigramTraining": "training",
}
__all__ = sorted(_EXPORTS)
__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())


if TYPE_CHECKING:  # pragma: no cover
    from .config import UnigramTrainerConfig
    from .history import PieceStory, UnigramHistory
    from .steps import EmStep, FinalStep, PruneStep, SeedStep, UnigramStep
    from .training import UnigramTraining
