"""What the Train views ask the stepper each step, answered without spelling out every changed word:
the top words and the changed ids agree with the full :meth:`Stepper.last_change`."""

from __future__ import annotations

from bpe_engine.corpus import count_words
from bpe_engine.explore.stepper import Stepper
from bpe_engine.pretokenizers import GPT2
from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining


def test_top_changes_and_changed_ids_agree_with_the_full_change(alice_text: str) -> None:
    text = alice_text[:40_000]
    training = BpeTraining(count_words([text], GPT2, byte_level=True), BpeTrainerConfig(vocab_size=400))
    merges = [(s.left, s.right, s.new) for s in training.steps()]
    stepper = Stepper.from_text(text, GPT2, byte_level=True, merges=merges)
    assert stepper.last_change_top(5) is None and len(stepper.last_changed_word_ids()) == 0
    for _ in range(60):
        stepper.forward()
        full = stepper.last_change()
        top = stepper.last_change_top(5)
        assert full is not None and top is not None
        expected = sorted(full.changes, key=lambda c: (-c.count, c.word_id))[:5]
        assert top.changes == tuple(expected)
        assert (top.rank, top.words_changed, top.occurrences, top.pair_count) == (
            full.rank, full.words_changed, full.occurrences, full.pair_count,
        )
        assert sorted(stepper.last_changed_word_ids()) == sorted(c.word_id for c in full.changes)


def test_a_derivation_at_step_k_reads_only_the_merges_below_k() -> None:
    """While a run streams merges, the app's step k asks for a derivation: it must not walk every
    merge made so far (it did, ~140 ms a step while 5 MB trained), and give the same tree."""
    from bpe_engine.explore.stepper import Stepper
    from bpe_engine.pretokenizers import NONE

    merges = [("a", "b", "ab"), ("ab", "c", "abc"), ("x", "y", "xy")] + [(f"p{i}", "q", f"p{i}q") for i in range(5000)]
    reads: list[int] = []

    class Counted(list):  # the run's live merge log, reads counted
        def __getitem__(self, rank):  # noqa: ANN001, ANN204
            reads.append(rank)
            return super().__getitem__(rank)

    stepper = Stepper.from_text("abc", NONE, byte_level=False, merges=Counted(merges))
    bounded = stepper.derivation("abc", before=3)
    assert max(reads) < 3, "only merges below the step are read"
    full = Stepper.from_text("abc", NONE, byte_level=False, merges=merges).derivation("abc")
    assert bounded == full and bounded.rank == 1 and bounded.children[0].rank == 0
