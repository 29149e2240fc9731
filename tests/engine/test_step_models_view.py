"""The state hands other tabs' workers a read-only view of a stepper that models every step, never
the stepper: a piece's story read through it is a copy that later steps do not change, the model at
step k is the same through the view, and two views of one run are equal (the run did not change)."""

from __future__ import annotations

from bpe_engine.explore.train_stepper import StepModels
from bpe_engine.explore.unigram_stepper import UnigramStepper
from bpe_engine.training.unigram import UnigramTrainerConfig, UnigramTraining

LINES = ["ab ab abc abd", "abc b a bd", "dab cab ab"] * 20


def test_a_story_read_through_the_view_is_a_copy_later_steps_leave_alone() -> None:
    config = UnigramTrainerConfig(vocab_size=10, hard_vocab_limit=False)
    steps = list(UnigramTraining(LINES, config).steps())
    ems = [i for i, s in enumerate(steps) if s.kind == "em"]
    assert len(ems) >= 2
    stepper = UnigramStepper("\n".join(LINES), config)
    stepper.feed(steps[: ems[0] + 1])  # the seeds and the first EM step
    view = StepModels(stepper, stepper.available)
    piece = "▁ab"
    before = view.story(piece)
    assert before is not None and len(before.scores) == 1
    stepper.feed(steps[ems[0] + 1 :])  # the UI thread goes on feeding the run
    assert len(before.scores) == 1, "the copy a worker holds does not move"
    after = view.story(piece)
    assert after is not None and len(after.scores) > 1 and after is not before
    assert view.tokenizer_at(len(steps)) is stepper.tokenizer_at(view.available)  # k is capped at the view's steps
    assert StepModels(stepper, stepper.available) == view and StepModels(UnigramStepper("", config), 0) != view
