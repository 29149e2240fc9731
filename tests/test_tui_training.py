"""The training worker's body, without the UI: message protocol, cancellation, word counts."""

from __future__ import annotations

import pytest

from bpe_engine.corpus import count_words
from bpe_engine.pretokenizers import CL100K, END_OF_WORD, GPT2, NONE, WHITESPACE, custom
from bpe_engine.stepper import Stepper, StepperCancelled
from tui.messages import TrainingBatch, TrainingFailed, TrainingFinished, TrainingStarted
from tui.training import TrainRequest, run_training, word_counts


@pytest.mark.parametrize("pre", [GPT2, CL100K, WHITESPACE, END_OF_WORD, NONE, custom(r"\w+")])
@pytest.mark.parametrize("byte_level", [True, False])
def test_word_counts_from_the_stepper_equal_count_words(alice_text: str, korean_text: str, pre, byte_level) -> None:
    text = alice_text[:20000] + korean_text[:5000]
    expected = count_words([text], pre, byte_level=byte_level, workers=1)
    got = word_counts(Stepper.from_text(text, pre, byte_level=byte_level, merges=[]), byte_level=byte_level)
    assert list(got.counts.items()) == list(expected.counts.items())
    assert got.total_words == expected.total_words


def test_protocol_started_batches_finished(alice_text: str) -> None:
    posted: list[object] = []
    run_training(TrainRequest(alice_text[:30000], vocab_size=400), 7, posted.append, lambda: False)
    assert isinstance(posted[0], TrainingStarted) and isinstance(posted[-1], TrainingFinished)
    batches = [m for m in posted if isinstance(m, TrainingBatch)]
    assert all(m.run_id == 7 for m in batches)
    steps = [s for b in batches for s in b.steps]
    assert [s.rank for s in steps] == list(range(144)) and batches[-1].done == 144
    assert posted[-1].tokenizer is not None and len(posted[-1].tokenizer.merges) == 144


def test_cancel_stops_without_finishing(alice_text: str) -> None:
    posted: list[object] = []
    calls = iter(range(10**9))
    run_training(TrainRequest(alice_text, vocab_size=2000), 1, posted.append, lambda: next(calls) > 40)
    assert not any(isinstance(m, (TrainingFinished, TrainingFailed)) for m in posted)
    with pytest.raises(StepperCancelled):
        Stepper.from_text(alice_text, GPT2, byte_level=True, merges=[], cancelled=lambda: True)


def test_bad_settings_become_a_failed_message() -> None:
    posted: list[object] = []
    run_training(TrainRequest("some text", vocab_size=-1), 3, posted.append, lambda: False)
    assert len(posted) == 1 and isinstance(posted[0], TrainingFailed) and posted[0].run_id == 3
    assert "vocab" in posted[0].message


def test_wordpiece_runs_through_the_same_protocol(alice_text: str) -> None:
    posted: list[object] = []
    request = TrainRequest(alice_text[:20000], model="wordpiece", byte_level=False, vocab_size=300)
    run_training(request, 2, posted.append, lambda: False)
    assert isinstance(posted[-1], TrainingFinished), posted[-1]
    stepper = posted[0].stepper  # type: ignore[attr-defined]
    stepper.merges.extend(s for m in posted if isinstance(m, TrainingBatch) for s in m.steps)
    stepper.seek(stepper.available)
    tokenizer = posted[-1].tokenizer
    for word_id in range(0, stepper.word_count, 7):  # the stepper's segmentation is the model's
        assert tuple(tokenizer.encode_detailed(stepper.word_texts[word_id]).tokens) == stepper.word_symbols(word_id)
