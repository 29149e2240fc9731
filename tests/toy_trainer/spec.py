"""The toy's registration: its option, its step kind (own columns), where its code is."""

from __future__ import annotations

from bpe_engine.choices import Choice
from bpe_engine.training.front_options import VOCAB
from bpe_engine.training.merge_kinds import NUMBER
from bpe_engine.training.registry import Column, Option, Ref, StepKind, TrainerSpec

_HOOKS = "tests.toy_trainer.hooks"

SPEC = TrainerSpec(
    name="toy",
    label="Toy",
    summary="a toy trainer: recount every pair, merge the most frequent (the registration test's)",
    config=Ref("tests.toy_trainer.config", "ToyConfig"),
    hooks=Ref(_HOOKS, ""),
    options=(
        VOCAB,
        Option("toymin", "min count", "int", "min_count", "the smallest pair count worth merging", flag="--toy-min-count"),
        Option(
            "toyorder", "ties", "select", "order", "which of the tied pairs wins", flag="--toy-order",
            choices=(Choice("first", "first", "the pair that sorts first"), Choice("last", "last", "the pair that sorts last")),
        ),
    ),
    step_kinds=(
        StepKind(
            "toy merge", (NUMBER, Column("toy pair", False, True), Column("toy count")),
            row=Ref(_HOOKS, "row"), title=Ref(_HOOKS, "title"), progress="toying",
        ),
    ),
    reads="texts",
)
