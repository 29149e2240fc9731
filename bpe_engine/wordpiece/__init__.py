"""WordPiece, next to BPE: training (by count as HF, or by score), BERT's front end, ``bert-base-uncased``.

Its encoder and front end, from one place::

    from bpe_engine.wordpiece import bert_base_uncased
    from bpe_engine.training.wordpiece import train_wordpiece, WordPieceTrainerConfig

    tok = bert_base_uncased()
    tok.encode("unaffable")                          # [14477, 20961, 3468] = una ##ffa ##ble
    tok.encode("hi", add_special_tokens=True)        # [101, 7632, 102]

    training = WordPieceTraining(["some text ..."], WordPieceTrainerConfig(vocab_size=1000))
    for step in training.steps(): ...                # MergeStep with .score
    training.tokenizer()

Modules: :mod:`.bert_normalizer`, :mod:`.bert_pretokenizer` (front end), :mod:`.model`
(encoder),
:mod:`bpe_engine.training.wordpiece` (fast and naive training), :mod:`.vocab_files` (``vocab.txt``);
its ``tokenizer.json`` is :mod:`bpe_engine.formats.wordpiece_json` (the files layer).
"""

from .bert_normalizer import BertNormalizer
from .bert_pretokenizer import bert_pieces, bert_words
from .model import BERT_SPECIALS, WordPieceTokenizer
from .vocab_files import (
    BERT_BASE_UNCASED,
    BERT_VOCAB_SHA256,
    bert_base_uncased,
    load_vocab_txt,
    save_vocab_txt,
    vocab_txt_problem,
)

__all__ = [
    "BERT_BASE_UNCASED",
    "BERT_SPECIALS",
    "BERT_VOCAB_SHA256",
    "BertNormalizer",
    "WordPieceTokenizer",
    "bert_base_uncased",
    "bert_pieces",
    "bert_words",
    "load_vocab_txt",
    "save_vocab_txt",
    "vocab_txt_problem",
]
