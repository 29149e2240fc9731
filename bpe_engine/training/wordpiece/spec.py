"""WordPiece's registration: its options, its step kind, where its code is (:mod:`.hooks`).

It starts from the command line's settings -- BERT's normaliser and split, minimum frequency 2 --
so the app and the CLI train the same vocabulary (the form resets to these when WordPiece is chosen).
"""

from __future__ import annotations

from ...choices import PRE_TOKENIZERS, WORDPIECE_MERGE_BY, Choice
from ..bpe.spec import MIN_FREQUENCY, UNK
from ..front_options import BERT_FRONT_END, PATTERN, PRE_TOKENIZER, VOCAB
from ..merge_kinds import MERGE, SCORED_MERGE
from ..registry import Option, Ref, TrainerSpec

_YES_NO = (Choice("yes", "yes", "lowercase"), Choice("no", "no", "keep the case"))
_ACCENTS = (
    Choice("auto", "strip if lowercase", "strip accents when lowercasing (BERT's rule)"),
    Choice("strip", "strip", "strip accents"),
    Choice("keep", "keep", "keep accents"),
)

SPEC = TrainerSpec(
    name="wordpiece",
    label="WordPiece",
    summary="BERT's subwords (##): merge the most frequent pair as Hugging Face's WordPieceTrainer, or by a score",
    config=Ref("bpe_engine.training.wordpiece.setup", "WordPieceTrainerConfig"),
    hooks=Ref("bpe_engine.training.wordpiece.hooks", ""),
    options=(
        Option(
            PRE_TOKENIZER.name, PRE_TOKENIZER.label, "select", PRE_TOKENIZER.field,
            "how text is cut into words (default: BERT's normaliser and split)", flag=PRE_TOKENIZER.flag,
            choices=(*PRE_TOKENIZERS, BERT_FRONT_END), default=BERT_FRONT_END.value, cli=False,
        ),
        PATTERN,
        VOCAB,
        Option(
            "merge_by", "merge by", "select", "merge_by",
            "how the next merge is chosen: count is Hugging Face's WordPieceTrainer (a working BERT vocabulary), "
            "score is count(ab) / (count(a) count(b)) as the HF course teaches it (favours rare pairs)",
            flag="--merge-by", choices=WORDPIECE_MERGE_BY,
        ),
        MIN_FREQUENCY,
        UNK,
        Option(
            "lowercase", "lowercase", "select", "normalizer", "BERT's normaliser lowercases (bert-base-uncased)",
            flag="--lowercase", choices=_YES_NO, default="yes", enables=("pretok", (BERT_FRONT_END.value,)),
        ),
        Option(
            "accents", "accents", "select", "normalizer", "whether BERT's normaliser strips accents",
            flag="--strip-accents", choices=_ACCENTS, default="auto", enables=("pretok", (BERT_FRONT_END.value,)),
        ),
    ),
    step_kinds=(MERGE, SCORED_MERGE),  # by count (the default) or by score: the step list takes the columns of the steps that come
    reads="texts",
)

__all__ = ["SPEC"]
