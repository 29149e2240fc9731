"""PickyBPE's registration: its options (1.3.1's conventions as defaults), its step kinds, its hooks."""

from __future__ import annotations

from ...choices import PICKY_TIE_BREAKS, TIE_BREAKS, Choice
from ..front_options import VOCAB
from ..merge_kinds import MERGE, NUMBER
from ..registry import Column, Option, Ref, StepKind, TrainerSpec

_HOOKS = "bpe_engine.training.picky.hooks"

PICKY_OPTIONS: tuple[Option, ...] = (
    VOCAB,
    Option("tau", "τ (IoS)", "float", "tau", "remove a part whose intersection-over-self passes this threshold", flag="--picky-tau", metavar="T"),
    Option(
        "iosfreq", "IoS uses", "select", "ios_frequency", "what counts as the part's use inside the new token",
        flag="--picky-frequency",
        choices=(Choice("child", "child freq", "the new token's frequency (pickybpe 1.3.1)"),
                 Choice("pair", "pair freq", "this merge's pair frequency (the paper, the original code)")),
    ),
    Option(
        "ioscmp", "IoS vs τ", "select", "ios_compare", "how the IoS is compared with τ", flag="--picky-compare",
        choices=(Choice("above", "> τ", "IoS > τ (both codes)"), Choice("at-least", "≥ τ", "IoS ≥ τ (the paper)")),
    ),
    Option("coverage", "coverage", "float", "character_coverage", "the characters kept cover this share of the corpus; the rest are [UNK]",
           flag="--character-coverage", metavar="C"),
    Option("pickymax", "max len", "int", "max_token_length", "no token longer than N characters", flag="--picky-max-length", metavar="N"),
    Option("pickytie", "tie-break", "select", "tie_break", "which pair wins when counts tie", flag="--tie-break",
           choices=tuple(c for c in TIE_BREAKS if c.value in PICKY_TIE_BREAKS)),
)

SPLIT = StepKind(
    "split", (NUMBER, Column("split", False, True), Column("IoS"), Column("left")),
    row=Ref(_HOOKS, "split_row"), title=Ref(_HOOKS, "split_title"), progress="merging",
)
RESTORE = StepKind(
    "restore", (NUMBER, Column("restore", False, True), Column("count"), Column("words")),
    row=Ref(_HOOKS, "restore_row"), title=Ref(_HOOKS, "restore_title"), progress="merging",
)

SPEC = TrainerSpec(
    name="picky",
    label="PickyBPE",
    summary="BPE that removes a merge's part once the new token used it up (IoS > τ), and restores it if made again",
    config=Ref("bpe_engine.training.picky.config", "PickyConfig"),
    hooks=Ref(_HOOKS, ""),
    options=PICKY_OPTIONS,
    step_kinds=(MERGE, SPLIT, RESTORE),
    reads="counts",
    cli_notes=("pickybpe-bauwenst 1.3.1's conventions: words cut at whitespace with ▁, characters as atoms, "
               "[PAD] [UNK] [BOS] [EOS] at 0-3",),
)
