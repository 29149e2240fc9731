"""The WordPiece trainer and its naive oracle: merges chosen by the WordPiece score
count(ab) / (count(a) · count(b)), as the Hugging Face course describes it (HF's own
WordPieceTrainer merges by frequency, so its vocabularies are not expected to match).

>>> from bpe_engine.training.wordpiece import WordPieceTrainerConfig, train_wordpiece
"""

from .trainer import WordPieceTrainerConfig, WordPieceTraining, count_bert_words, train_wordpiece

__all__ = ["WordPieceTrainerConfig", "WordPieceTraining", "count_bert_words", "train_wordpiece"]
