"""The child-process path of the training worker: same merges, same messages, clean shutdown."""

from __future__ import annotations

import multiprocessing
import time

import pytest

from bpe_engine.bpe_trainer import BpeTrainerConfig, BpeTraining
from bpe_engine.corpus import count_words
from bpe_engine.pretokenizers import END_OF_WORD, GPT2
from tui.child_training import tokenizer_from_state
from tui.messages import TrainingBatch, TrainingFailed, TrainingFinished, TrainingStarted
from tui.training import CHILD_MIN_CHARS, TrainRequest, run_training, trains_in_child

SAMPLE = "Alice was beginning to get very tired of sitting by her sister on the bank, 'and what is the use?'"


def train(request: TrainRequest, *, child: bool) -> list[object]:
    posted: list[object] = []
    run_training(request, 5, posted.append, lambda: False, child_min_chars=0 if child else None)
    return posted


def steps_of(posted: list[object]) -> list[object]:
    return [s for m in posted if isinstance(m, TrainingBatch) for s in m.steps]


@pytest.fixture(scope="module")
def big_text(alice_text: str, korean_text: str) -> str:
    text = alice_text * 2 + korean_text[:10_000]  # Alice doubled (297k) and some Hangul: past the limit
    assert len(text) >= CHILD_MIN_CHARS
    return text


def test_big_bpe_runs_in_a_child_and_small_or_wordpiece_in_the_thread(big_text: str) -> None:
    assert trains_in_child(TrainRequest(big_text))
    assert not trains_in_child(TrainRequest(big_text[: CHILD_MIN_CHARS - 1]))
    assert not trains_in_child(TrainRequest(big_text, model="wordpiece", byte_level=False))
    assert not trains_in_child(TrainRequest(big_text, stop_after=3))
    assert not trains_in_child(TrainRequest(big_text), None)


def test_child_merges_and_tokenizer_equal_the_thread_path(big_text: str) -> None:
    request = TrainRequest(big_text, vocab_size=600)
    in_thread, in_child = train(request, child=False), train(request, child=True)
    for posted in (in_thread, in_child):
        assert isinstance(posted[0], TrainingStarted) and isinstance(posted[-1], TrainingFinished), posted[-1]
        assert all(m.run_id == 5 for m in posted)  # type: ignore[attr-defined]
    assert in_child[0].target == in_thread[0].target and in_child[0].notes == in_thread[0].notes
    assert len(steps_of(in_child)) == 600 - 256
    assert steps_of(in_child) == steps_of(in_thread)
    assert in_child[-1].done == in_thread[-1].done == 600 - 256
    ours, theirs = in_child[-1].tokenizer, in_thread[-1].tokenizer
    assert ours.name == theirs.name and ours.vocab == theirs.vocab and ours.merges == theirs.merges
    for sample in (SAMPLE, big_text[100_000:102_000]):
        assert ours.encode(sample) == theirs.encode(sample)


def test_character_level_with_end_of_word_and_min_frequency_match_too(alice_text: str) -> None:
    request = TrainRequest(
        alice_text[:60_000], byte_level=False, pre_tokenizer=END_OF_WORD, vocab_size=900, min_frequency=40,
        tie_break="lexicographic",
    )
    in_thread, in_child = train(request, child=False), train(request, child=True)
    assert steps_of(in_child) == steps_of(in_thread) and steps_of(in_child)
    assert in_child[0].notes == in_thread[0].notes
    assert in_child[-1].tokenizer.encode(SAMPLE) == in_thread[-1].tokenizer.encode(SAMPLE)


def test_tokenizer_from_state_keeps_the_last_rank_of_a_pair_merged_twice(alice_text: str) -> None:
    config = BpeTrainerConfig(vocab_size=500, pre_tokenizer=GPT2, special_tokens=("<s>",))
    training = BpeTraining(count_words([alice_text[:40_000]], GPT2, ("<s>",), byte_level=True, workers=1), config)
    list(training.steps())
    merges = [*training.merges, training.merges[3]]  # as after an id reuse: (a, b) again at the end
    rebuilt = tokenizer_from_state(config, training.vocab, merges)
    assert rebuilt.merges == [*training.merges[:3], *training.merges[4:], training.merges[3]]
    assert tokenizer_from_state(config, training.vocab, training.merges).encode(SAMPLE + "<s>", allowed_special="all") == (
        training.tokenizer().encode(SAMPLE + "<s>", allowed_special="all")
    )


def test_bad_settings_fail_before_a_process_starts(big_text: str) -> None:
    posted = train(TrainRequest(big_text[:1000], vocab_size=-1), child=True)
    assert len(posted) == 1 and isinstance(posted[0], TrainingFailed) and "vocab" in posted[0].message
    assert not multiprocessing.active_children()


def test_an_error_in_the_child_becomes_a_failed_message(big_text: str) -> None:
    # byte-level counts against a character-level config: BpeTraining refuses them in the child
    from tui.child_training import stream_child_training
    from bpe_engine.stepper import Stepper

    text = big_text[:3000]
    stepper = Stepper.from_text(text, GPT2, byte_level=True, merges=[])
    counts = count_words([text], GPT2, byte_level=True, workers=1)
    posted: list[object] = []
    config = BpeTrainerConfig(vocab_size=300, byte_level=False)
    stream_child_training(counts, config, stepper, 9, posted.append, lambda: False, start=time.monotonic())
    assert len(posted) == 1 and isinstance(posted[0], TrainingFailed) and posted[0].run_id == 9
    assert "byte-level" in posted[0].message
    assert not multiprocessing.active_children()


def test_cancel_terminates_the_child_without_a_zombie(big_text: str) -> None:
    posted: list[object] = []
    started = time.monotonic()

    def cancelled() -> bool:  # cancel once the first merges have arrived
        return any(isinstance(m, TrainingBatch) and m.steps for m in posted)

    run_training(TrainRequest(big_text, vocab_size=20_000), 1, posted.append, cancelled, child_min_chars=0)
    assert isinstance(posted[0], TrainingStarted) and any(isinstance(m, TrainingBatch) for m in posted)
    assert not any(isinstance(m, (TrainingFinished, TrainingFailed)) for m in posted)
    assert not multiprocessing.active_children()  # terminated and joined (reaped)
    assert time.monotonic() - started < 60  # a guard against a hang, not a timing assertion


def test_a_killed_child_becomes_a_failed_message(big_text: str) -> None:
    posted: list[object] = []

    def post(message: object) -> None:
        posted.append(message)
        if isinstance(message, TrainingStarted):
            for child in multiprocessing.active_children():
                child.kill()

    run_training(TrainRequest(big_text, vocab_size=20_000), 4, post, lambda: False, child_min_chars=0)
    assert isinstance(posted[-1], TrainingFailed) and posted[-1].run_id == 4
    assert "stopped unexpectedly" in posted[-1].message and "exit code -9" in posted[-1].message
    assert not multiprocessing.active_children()


async def test_app_trains_a_big_corpus_in_a_child_and_quitting_mid_run_leaves_no_process(big_text: str) -> None:
    import asyncio

    from tui.app import ExplorerApp

    app = ExplorerApp(big_text)
    async with app.run_test(size=(120, 40)) as pilot:
        app.query_one("#vocab").value = "20000"
        await pilot.pause()
        app.action_train()
        while app.stepper is None or app.stepper.available < 5:
            await asyncio.sleep(0.05)
        assert app.training and multiprocessing.active_children()  # the merges come from a child
        workers = list(app.workers)
        app.exit()
    assert workers and all(w.is_cancelled or w.is_finished for w in workers)
    for _ in range(100):  # the worker notices the cancel within one poll and terminates the child
        if not multiprocessing.active_children():
            break
        time.sleep(0.05)
    assert not multiprocessing.active_children()
