"""The WordPiece trainer (Hugging Face's WordPieceTrainer: merges chosen by score) and its naive
oracle.

>>> from bpe_engine.training.wordpiece import WordPieceTrainerConfig, train_wordpiece
"""

from .trainer import WordPieceTrainerConfig, WordPieceTraining, count_bert_words, train_wordpiece

__all__ = ["WordPieceTrainerConfig", "WordPieceTraining", "count_bert_words", "train_wordpiece"]
