"""Scaffold-BPE's registration: BPE's options plus the rule, its step kinds, its hooks."""

from __future__ import annotations

from dataclasses import replace

from ...choices import Choice
from ..bpe.spec import BPE_OPTIONS
from ..merge_kinds import MERGE, NUMBER
from ..registry import Column, Option, Ref, StepKind, TrainerSpec

_HOOKS = "bpe_engine.training.scaffold.hooks"

RULE = Option(
    "scaffoldrule", "rule", "select", "variant", "when a token becomes a scaffold, and whether it comes back",
    flag="--scaffold-rule", default="paper",
    choices=(Choice("paper", "paper", "below the next pair after the merge; re-activated when above the best pair (Lian et al.)"),
             Choice("tktkt", "TkTkT", "below the merge's runner-up; never re-activated (TkTkT's ScaffoldBPE)")),
)

# BPE's options read their defaults from BPE's config fields, which ScaffoldConfig holds as one
# field (``bpe``); here they say them (BpeTrainerConfig's own, held equal by a test) so a lookup
# imports no config
BPE_DEFAULTS = {"minfreq": "0", "tiebreak": "hf", "maxlen": "16", "unk": ""}
_BPE_OPTIONS = tuple(replace(o, default=BPE_DEFAULTS[o.name]) if o.default is None and o.name in BPE_DEFAULTS else o for o in BPE_OPTIONS)

SPEC = TrainerSpec(
    name="scaffold",
    label="Scaffold-BPE",
    summary="BPE whose stepping-stone tokens (rarer than the next pair) leave the vocabulary; encoding breaks them up",
    config=Ref("bpe_engine.training.scaffold.config", "ScaffoldConfig"),
    hooks=Ref(_HOOKS, ""),
    options=(*_BPE_OPTIONS, RULE),
    step_kinds=(
        MERGE,
        StepKind("scaffold", (NUMBER, Column("scaffold", False, True), Column("freq"), Column("next")),
                 row=Ref(_HOOKS, "scaffold_row"), title=Ref(_HOOKS, "scaffold_title"), progress="merging"),
        StepKind("reactivate", (NUMBER, Column("re-activated", False, True), Column("freq"), Column("best")),
                 row=Ref(_HOOKS, "reactivate_row"), title=Ref(_HOOKS, "reactivate_title"), progress="merging"),
    ),
    reads="counts",
)
