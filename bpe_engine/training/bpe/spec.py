"""BPE's registration: its options, its step kind, where its code is (:mod:`.hooks`).

The options are both ``bpe-explorer train --model bpe``'s flags and the Train form's fields; their
defaults are the config's own (:class:`~.config.BpeTrainerConfig`). :data:`BPE_OPTIONS` is public:
a trainer built on BPE's merges (resumed, extended, a variant) offers the same settings.
"""

from __future__ import annotations

from ...choices import END_OF_WORD_STYLES, TIE_BREAKS, Choice
from ..front_options import PATTERN, PRE_TOKENIZER, VOCAB
from ..merge_kinds import MERGE
from ..registry import Option, Ref, TrainerSpec

LEVELS = (Choice("byte", "byte-level", "merge bytes (BPE default)"), Choice("char", "character", "merge characters"))
LEVEL = Option(
    "level", "level", "select", "byte_level", "merge bytes or characters", flag="--byte-level", choices=LEVELS,
    default="byte", cli=False,
)
"""``--byte-level`` / ``--char-level`` is a corpus flag every command shares (None: byte-level,
unless ``</w>`` or an unknown token asks for characters)."""

MIN_FREQUENCY = Option(
    "minfreq", "min freq", "int", "min_frequency", "stop when the best pair occurs fewer than K times",
    flag="--min-frequency", metavar="K",
)
UNK = Option(
    "unk", "unk", "text", "unk_token", "a special token that stands for characters the alphabet lacks (character-level)",
    flag="--unk-token", metavar="TOKEN", placeholder="none",
)

BPE_OPTIONS: tuple[Option, ...] = (
    LEVEL,
    PRE_TOKENIZER,
    PATTERN,
    VOCAB,
    MIN_FREQUENCY,
    Option("tiebreak", "tie-break", "select", "tie_break", "which pair wins when counts tie", flag="--tie-break", choices=TIE_BREAKS),
    Option(
        "eow", "</w>", "select", "end_of_word",
        "how </w> marks a word's end: attached to its last character (l o w</w>, HF's end_of_word_suffix) or separate, "
        "a symbol of its own (l o w </w>, Sennrich et al. 2016); implies --pre-tokenizer end-of-word",
        flag="--end-of-word", choices=END_OF_WORD_STYLES, default="attached", enables=("pretok", ("end-of-word",)),
    ),
    Option(
        "maxlen", "max len", "int", "max_token_length",
        "no merge makes a token of N characters or more (bytes for byte-level); 0 = no limit",
        flag="--max-token-length", metavar="N",
    ),
    UNK,
)

SPEC = TrainerSpec(
    name="bpe",
    label="BPE",
    summary="byte-pair encoding: merge the most frequent pair, step by step",
    config=Ref("bpe_engine.training.bpe.config", "BpeTrainerConfig"),
    hooks=Ref("bpe_engine.training.bpe.hooks", ""),
    options=BPE_OPTIONS,
    step_kinds=(MERGE,),
    reads="counts",
)

__all__ = ["BPE_OPTIONS", "LEVEL", "LEVELS", "MIN_FREQUENCY", "SPEC", "UNK"]
