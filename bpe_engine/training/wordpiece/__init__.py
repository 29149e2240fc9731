"""The WordPiece trainer: merges by count, as Hugging Face's ``WordPieceTrainer`` (the default,
:mod:`.by_count`), or by the score count(ab) / (count(a) · count(b)) the Hugging Face course
teaches (:mod:`.by_score`, with its naive oracle :mod:`.naive`); :mod:`.vocabulary_health` says
when a result cannot be used.

>>> from bpe_engine.training.wordpiece import WordPieceTrainerConfig, train_wordpiece
"""

from .trainer import WordPieceTrainerConfig, WordPieceTraining, count_bert_words, train_wordpiece

__all__ = ["WordPieceTrainerConfig", "WordPieceTraining", "count_bert_words", "train_wordpiece"]
