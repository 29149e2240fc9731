"""WordPiece, next to BPE: training (by count as HF, or by score), BERT's front end, ``bert-base-uncased``.

Everything public is re-exported here::

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
:mod:`bpe_engine.training.wordpiece` (fast and naive training), :mod:`.vocab_files` / :mod:`.hf_json` (files), :mod:`.stats`.
"""

from .bert_normalizer import BertNormalizer
from .bert_pretokenizer import bert_pieces, bert_words
from .hf_json import hf_json_text, load_hf_json, save_hf_json, save_wordpiece_dir
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
    "hf_json_text",
    "load_hf_json",
    "load_vocab_txt",
    "save_hf_json",
    "save_vocab_txt",
    "vocab_txt_problem",
    "save_wordpiece_dir",
]
