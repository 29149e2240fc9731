"""The state says which model stands at step k when a run's steps are not one merge each: an
extended run's first step is its base's whole merge list (one collapsed row), then one merge a
step. The stepper declares the mapping (``merges_at``); Inspect and Compare read the model through
the state, so a trainer with such steps needs no edit to them."""

from __future__ import annotations

from typing import cast

from bpe_engine.training.bpe import BpeTrainerConfig, train
from bpe_engine.types import ReplaysMerges, Tokenizer
from tui.state import ExplorerState
from tui.train.step_log import StepLog

BASE = 5  # the first step stands for the base's five merges


def _collapsed(k: int) -> int:
    return 0 if k == 0 else BASE + k - 1


def _merges(tokenizer: Tokenizer | None) -> int:
    assert tokenizer is not None
    return len(cast(ReplaysMerges, tokenizer).merges)  # a BPE prefix view: its merges so far


def test_step_k_stands_for_the_merges_its_stepper_declares() -> None:
    result = train(["low lower lowest newer wider " * 8], BpeTrainerConfig(vocab_size=256 + 12))
    tokenizer = result.tokenizer
    merges = len(result.steps)
    steps = StepLog().extended(result.steps[BASE - 1 :])  # the rows: one for the base, then one per merge
    plain = ExplorerState(merges=StepLog().extended(result.steps), tokenizer=tokenizer, step=2)
    state = ExplorerState(merges=steps, tokenizer=tokenizer, step=2, merges_at=_collapsed)
    assert _merges(plain.tokenizer_at()) == 2 and plain.step_total == merges
    assert _merges(state.tokenizer_at()) == BASE + 1  # the base, then one more
    assert _merges(state.tokenizer_at(1)) == BASE and _merges(state.tokenizer_at(0)) == 0
    assert state.step_total == len(steps) == merges - BASE + 1
    assert _merges(state.tokenizer_at(state.step_total)) == merges  # the last row: the whole model
