"""Scaffold-BPE's registration: BPE's options plus the rule, its step kinds, its hooks."""

from __future__ import annotations

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

SPEC = TrainerSpec(
    name="scaffold",
    label="Scaffold-BPE",
    summary="BPE whose stepping-stone tokens (rarer than the next pair) leave the vocabulary; encoding breaks them up",
    config=Ref("bpe_engine.training.scaffold.config", "ScaffoldConfig"),
    hooks=Ref(_HOOKS, ""),
    options=(*BPE_OPTIONS, RULE),
    step_kinds=(
        MERGE,
        StepKind("scaffold", (NUMBER, Column("scaffold", False, True), Column("freq"), Column("next")),
                 row=Ref(_HOOKS, "scaffold_row"), title=Ref(_HOOKS, "scaffold_title"), progress="merging"),
        StepKind("reactivate", (NUMBER, Column("re-activated", False, True), Column("freq"), Column("best")),
                 row=Ref(_HOOKS, "reactivate_row"), title=Ref(_HOOKS, "reactivate_title"), progress="merging"),
    ),
    reads="counts",
)
