"""SuperBPE's registration: the transition point and the rules, BPE's merge steps, its hooks."""

from __future__ import annotations

from ...choices import TIE_BREAKS
from ..front_options import PATTERN, PRE_TOKENIZER, VOCAB
from ..merge_kinds import MERGE
from ..registry import Option, Ref, TrainerSpec

SUPERBPE_OPTIONS: tuple[Option, ...] = (
    VOCAB,
    Option("transition", "transition", "int", "transition", "merges learnt with the usual pre-tokenizer before merges may cross spaces",
           flag="--transition", metavar="T", default="0"),
    PRE_TOKENIZER,
    PATTERN,
    Option("colon", "no ':␣'", "flag", "colon_rule", "stage 2 makes no token with ':' followed by a space (SuperBPE's rule)",
           flag="--superbpe-colon-rule"),
    Option("maxwords", "max words", "int", "max_words", "stage 2 makes no token of more than N words (0 = no limit)",
           flag="--max-words", metavar="N"),
    Option("supertie", "tie-break", "select", "tie_break", "which pair wins when counts tie", flag="--tie-break", choices=TIE_BREAKS),
)

SPEC = TrainerSpec(
    name="superbpe",
    label="SuperBPE",
    summary="BPE to a transition point, then merges across spaces: superword tokens (Liu et al. 2025)",
    config=Ref("bpe_engine.training.superbpe.config", "SuperBpeConfig"),
    hooks=Ref("bpe_engine.training.superbpe.hooks", ""),
    options=SUPERBPE_OPTIONS,
    step_kinds=(MERGE,),
    reads="texts",
    cli_notes=("stage 1 is BPE with --pre-tokenizer (gpt2); stage 2 cuts only at digits, punctuation runs and trailing spaces",),
)
