"""The WordPiece trainer and its naive oracle: merges chosen by the WordPiece score
count(ab) / (count(a) · count(b)), as the Hugging Face course describes it (HF's own
WordPieceTrainer merges by frequency, so its vocabularies are not expected to match).

:mod:`.spec` registers it (options, step kinds); :mod:`.hooks` is what the registration points to.
Names are imported on first use, so looking the trainer up imports only its declaration.

>>> from bpe_engine.training.wordpiece import WordPieceTrainerConfig, train_wordpiece
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "WordPieceTrainerConfig": "trainer",
    "WordPieceTraining": "trainer",
    "count_bert_words": "trainer",
    "train_wordpiece": "trainer",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:  # pragma: no cover
    from .trainer import WordPieceTrainerConfig, WordPieceTraining, count_bert_words, train_wordpiece
