"""The WordPiece trainer: merges by count, as Hugging Face's ``WordPieceTrainer`` (the default,
:mod:`.by_count`), or by the score count(ab) / (count(a) · count(b)) the Hugging Face course
teaches (:mod:`.by_score`, with its naive oracle :mod:`.naive`); :mod:`.vocabulary_health` says
when a result cannot be used.

:mod:`.spec` registers it (options, step kinds); :mod:`.hooks` is what the registration points to.
Names are imported on first use, so looking the trainer up imports only its declaration.

>>> from bpe_engine.training.wordpiece import WordPieceTrainerConfig, train_wordpiece
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy_exports import lazy_getattr

_EXPORTS = {
    "WordPieceTrainerConfig": "trainer",
    "WordPieceTraining": "trainer",
    "count_bert_words": "trainer",
    "train_wordpiece": "trainer",
}
__all__ = sorted(_EXPORTS)
__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())


if TYPE_CHECKING:  # pragma: no cover
    from .trainer import WordPieceTrainerConfig, WordPieceTraining, count_bert_words, train_wordpiece
