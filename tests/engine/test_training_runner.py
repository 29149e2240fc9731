"""The training runner: one event protocol, a thread and a child-process backend, the same results."""

from __future__ import annotations

import copy
import os
import pickle
import signal
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bpe_engine.training.runner.child as child_module
from bpe_engine.corpus import count_words
from bpe_engine.corpus.cut import CorpusWords
from bpe_engine.errors import ConfigError
from bpe_engine.pretokenizers import CL100K, END_OF_WORD, GPT2, NONE, WHITESPACE, custom
from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining
from bpe_engine.training.runner import (
    Cancelled,
    Failed,
    Finished,
    Started,
    Steps,
    TrainingRequest,
    choose_backend,
    run_training,
)
from bpe_engine.training.runner.model_state import MergeModelState
from bpe_engine.training.steps import MergeStep
from bpe_engine.training.wordpiece import WordPieceTrainerConfig

SAMPLE = "Alice was beginning to get very tired of sitting by her sister on the bank, 'and what is the use?' 한국어"


def bpe(text: str, *, words: CorpusWords | None = None, throttle: float = 0.0, **options: object) -> TrainingRequest:
    """A BPE run of ``text`` (options: BpeTrainerConfig's)."""
    return TrainingRequest(text, BpeTrainerConfig(**{"vocab_size": 1000, **options}), throttle=throttle, words=words)


def steps_of(events: list[object]) -> list[object]:
    return [s for e in events if isinstance(e, Steps) for s in e.steps]


def live_children() -> list[int]:
    """Our child processes that are still running (zombies count: they were not reaped)."""
    me = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                training = b"training.runner.child" in f.read()
        except OSError:
            continue
        if int(fields[1]) == me and training:  # other tests' helper processes do not count
            found.append(int(entry))
    return found


@pytest.mark.parametrize("pre", [GPT2, CL100K, WHITESPACE, END_OF_WORD, NONE, custom(r"\w+")])
@pytest.mark.parametrize("byte_level", [True, False])
def test_corpus_words_count_like_count_words(alice_text: str, korean_text: str, pre, byte_level) -> None:  # noqa: ANN001
    text = alice_text[:20000] + korean_text[:5000]
    expected = count_words([text], pre, byte_level=byte_level, workers=1)
    got = CorpusWords.from_text(text, pre).word_counts(byte_level=byte_level)
    assert list(got.counts.items()) == list(expected.counts.items())
    assert got.total_words == expected.total_words


def test_protocol_started_merges_finished(alice_text: str) -> None:
    events = list(run_training(bpe(alice_text[:30000], vocab_size=400), backend="thread"))
    assert isinstance(events[0], Started) and isinstance(events[-1], Finished)
    assert events[0].target == 144 and events[0].alphabet == 256
    assert [s.rank for s in steps_of(events)] == list(range(144)) and events[-1].done == 144
    assert events[-1].tokenizer is not None and len(events[-1].tokenizer.merges) == 144


@pytest.fixture(scope="module")
def mixed(alice_text: str, korean_text: str) -> str:
    return alice_text[:120_000] + korean_text[:10_000]


@pytest.mark.parametrize(
    "config",
    [
        BpeTrainerConfig(vocab_size=600),
        BpeTrainerConfig(byte_level=False, pre_tokenizer=END_OF_WORD, vocab_size=900, min_frequency=40, tie_break="lexicographic"),
        WordPieceTrainerConfig(pre_tokenizer=GPT2, vocab_size=1200, min_frequency=0),
    ],
    ids=["bpe-byte", "bpe-char-eow", "wordpiece"],
)
def test_child_and_thread_give_the_same_run(mixed: str, config: object) -> None:
    request = TrainingRequest(mixed, config)
    in_thread = list(run_training(request, backend="thread"))
    in_child = list(run_training(request, backend="child"))
    for events in (in_thread, in_child):
        assert isinstance(events[0], Started) and isinstance(events[-1], Finished), events[-1]
    assert in_child[0].target == in_thread[0].target and in_child[0].notes == in_thread[0].notes
    assert in_child[0].words.texts == in_thread[0].words.texts
    assert steps_of(in_child) == steps_of(in_thread) and steps_of(in_child)
    ours, theirs = in_child[-1].tokenizer, in_thread[-1].tokenizer
    for sample in (SAMPLE, mixed[50_000:52_000]):
        assert ours.encode(sample) == theirs.encode(sample)
    assert not live_children()


def test_model_state_builds_the_trainers_own_tokenizer(alice_text: str) -> None:
    config = BpeTrainerConfig(vocab_size=500, pre_tokenizer=GPT2, special_tokens=("<s>",))
    training = BpeTraining(count_words([alice_text[:40_000]], GPT2, ("<s>",), byte_level=True, workers=1), config)
    list(training.steps())
    state = training.model_state()
    text = SAMPLE + "<s>"
    assert state.build().encode(text, special_mode="special") == training.tokenizer().encode(text, special_mode="special")
    twice = MergeModelState(config, state.vocab, (*state.merges, state.merges[3]))  # as after an id reuse
    assert twice.build().merges == [*state.merges[:3], *state.merges[4:], state.merges[3]]


@pytest.mark.parametrize("backend", ["thread", "child"])
def test_cancel_stops_after_merges_arrived(alice_text: str, backend: str) -> None:
    seen: list[object] = []

    def cancelled() -> bool:  # cancel once the first merges have arrived
        return any(isinstance(e, Steps) and e.steps for e in seen)

    request = bpe(alice_text, vocab_size=20_000, throttle=0.001)
    started = time.monotonic()
    for event in run_training(request, backend=backend, cancelled=cancelled, batch_seconds=0.05):
        seen.append(event)
    merges = steps_of(seen)
    assert merges, "merges must have arrived before the cancel"
    assert isinstance(seen[-1], Cancelled) and seen[-1].done == len(merges)
    assert len(merges) < 20_000 - 256, "the run stopped well before its end"
    assert not any(isinstance(e, (Finished, Failed)) for e in seen)
    assert not live_children(), "the child is killed and reaped"
    assert time.monotonic() - started < 60  # a guard against a hang, not a timing assertion


def test_a_killed_child_becomes_a_failed_message(alice_text: str) -> None:
    events = []
    for event in run_training(bpe(alice_text, vocab_size=20_000, throttle=0.002), backend="child"):
        events.append(event)
        if isinstance(event, Started):
            for pid in live_children():
                os.kill(pid, signal.SIGKILL)
    assert isinstance(events[-1], Failed)
    assert "stopped unexpectedly" in events[-1].message and "exit code -9" in events[-1].message
    assert not live_children()


def test_bad_settings_are_refused_by_the_config_naming_the_field() -> None:
    with pytest.raises(ConfigError, match="vocabulary size must be between 1 and 1,000,000") as refused:
        bpe("some text", vocab_size=-1)
    assert refused.value.field == "vocab_size"


def test_user_regexes_and_big_corpora_train_where_they_can_be_killed() -> None:
    assert choose_backend(bpe("x" * 10, pre_tokenizer=custom(r"\w+"))) == "child"
    assert choose_backend(bpe("x" * 200_000)) == "child"
    assert choose_backend(bpe("x" * 1000)) == "thread"


def test_a_catastrophic_regex_is_killed_on_cancel() -> None:
    """``(a|a)+$`` backtracks for hours: in the child, cancel ends it at once (no live process)."""
    request = bpe("a" * 30 + "b" + "a" * 40_000, pre_tokenizer=custom(r"(a|a)+$|\w"), vocab_size=300)
    deadline = time.monotonic() + 1.0
    events = list(run_training(request, cancelled=lambda: time.monotonic() > deadline))
    assert isinstance(events[-1], (Cancelled, Failed)), events[-1]
    assert not live_children()


def test_wordpiece_progress_ends_at_its_target(alice_text: str) -> None:
    """The progress target, the last batch and the finish agree (no off-by-one)."""
    config = WordPieceTrainerConfig(pre_tokenizer=GPT2, vocab_size=1500, min_frequency=0)
    events = list(run_training(TrainingRequest(alice_text[:60000], config)))
    started, finished = events[0], events[-1]
    merges = [e for e in events if isinstance(e, Steps)]
    assert isinstance(started, Started) and isinstance(finished, Finished)
    assert started.target == merges[-1].done == finished.done == len(steps_of(events)) == 1500 - started.alphabet


def test_the_child_never_waits_for_a_slow_consumer(alice_text: str) -> None:
    """The app's worker builds its stepper after Started (~0.5 s on 5 MB) before it reads on. The
    child must train on meanwhile: its frames are read off the pipe as they come, so a run whose
    merges overflow the pipe's 64 KB still ends while the consumer is busy (it stalled before)."""
    events = run_training(bpe(alice_text, vocab_size=3000), backend="child")
    while not isinstance(next(events), Started):
        pass
    deadline = time.monotonic() + 60  # a bound on a stall, not a timing assertion
    while (states := child_states()) and states != ["Z"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert states in ([], ["Z"]), f"the child is still {states} while its consumer is busy"
    rest = list(events)
    assert isinstance(rest[-1], Finished) and len(steps_of(rest)) == rest[-1].done > 2000
    assert not live_children()


def child_states() -> list[str]:
    """The process states (``R``, ``S``, ``Z``...) of our training children."""
    states = []
    for pid in live_children():
        try:
            with open(f"/proc/{pid}/stat") as f:
                states.append(f.read().rsplit(")", 1)[1].split()[0])
        except OSError:
            continue
    return states


def test_a_run_given_its_cut_corpus_trains_on_it_without_cutting_again(mixed: str, monkeypatch) -> None:  # noqa: ANN001
    """The app hands a run the cut its facts line made: the run must train the same merges from it
    and must not cut the corpus a second time (the cut is about half of training 5 MB)."""
    request = bpe(mixed, vocab_size=600)
    plain = list(run_training(request, backend="thread"))
    words = CorpusWords.from_text(mixed, GPT2)

    def no_second_cut(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("the corpus was cut again")

    monkeypatch.setattr(CorpusWords, "building", no_second_cut)
    given = list(run_training(bpe(mixed, vocab_size=600, words=words), backend="thread"))
    assert isinstance(given[-1], Finished), given[-1]
    assert steps_of(given) == steps_of(plain) and given[0].words is words
    assert bpe(mixed, vocab_size=600, words=words) == request, "the cut never decides the merges"


def test_a_cut_of_another_text_is_ignored(mixed: str) -> None:
    other = CorpusWords.from_text(mixed[:1000], GPT2)
    events = list(run_training(bpe(mixed, vocab_size=600, words=other), backend="thread"))
    assert events[0].words is not other and events[0].words.characters == len(mixed)
    assert steps_of(events) == steps_of(list(run_training(bpe(mixed, vocab_size=600), backend="thread")))


def test_the_child_does_not_send_back_the_cut_it_was_given(mixed: str) -> None:
    words = CorpusWords.from_text(mixed, GPT2)
    in_child = list(run_training(bpe(mixed, vocab_size=600, words=words), backend="child"))
    in_thread = list(run_training(bpe(mixed, vocab_size=600), backend="thread"))
    assert isinstance(in_child[-1], Finished), in_child[-1]
    assert in_child[0].words is words, "the parent's own cut, not a copy through the pipe"
    assert steps_of(in_child) == steps_of(in_thread)


@given(
    st.integers(0, 10**9), st.text(max_size=8), st.text(max_size=8), st.text(max_size=16),
    st.lists(st.integers(0, 10**12), min_size=6, max_size=6), st.one_of(st.none(), st.floats(allow_nan=False)),
)
def test_a_merge_step_crosses_the_pipe_whole(rank, left, right, new, numbers, score) -> None:  # noqa: ANN001
    """Steps are pickled as a call to the class (the generic dataclass unpickling was 2x slower on
    the app's reader thread): every field, the score too, comes back as it went."""
    step = MergeStep(rank, left, right, new, *numbers, score)
    assert pickle.loads(pickle.dumps(step, protocol=pickle.HIGHEST_PROTOCOL)) == step
    assert copy.deepcopy(step) == step


def test_the_training_child_yields_the_cpu_to_the_app(alice_text: str) -> None:
    """The child runs at a lower priority than the process that asked for the run (where the
    platform allows), so keys in the app are served before more merges on a busy machine."""
    if not hasattr(os, "nice") or not os.path.exists("/proc/self/stat"):
        pytest.skip("no process priorities to read here")
    mine = os.nice(0)
    seen: list[int] = []
    real = child_module.subprocess.Popen

    def spying_popen(*args, **kwargs):  # noqa: ANN002, ANN003
        process = real(*args, **kwargs)
        seen.append(process.pid)
        return process

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(child_module.subprocess, "Popen", spying_popen)
        events = run_training(bpe(alice_text * 4, vocab_size=2000), backend="child")
        niceness = None
        for event in events:
            if isinstance(event, Steps) and niceness is None:
                niceness = int(open(f"/proc/{seen[0]}/stat").read().rsplit(")", 1)[1].split()[16])
        assert niceness == min(mine + child_module.CHILD_NICENESS, 19)


@pytest.mark.parametrize("backend", ["thread", "child"])
def test_unigram_runs_through_the_same_protocol(alice_text: str, backend: str) -> None:
    """A Unigram run yields its seed, EM, pruning and final steps as Steps batches and finishes with
    the model UnigramTraining makes itself (the same pieces, so the same ids)."""
    from bpe_engine.training.unigram import UnigramTrainerConfig, UnigramTraining
    from bpe_engine.training.unigram.steps import EmStep, FinalStep, PruneStep, SeedStep

    text = "\n".join(alice_text.splitlines()[:400])
    config = UnigramTrainerConfig(vocab_size=300)
    events = list(run_training(TrainingRequest(text, config), backend=backend))
    started, finished = events[0], events[-1]
    assert isinstance(started, Started) and started.words is None and isinstance(finished, Finished), finished
    kinds = [type(s) for s in steps_of(events)]
    assert kinds[0] is SeedStep and kinds[-1] is FinalStep and EmStep in kinds and PruneStep in kinds
    assert finished.done == len(kinds)
    own = UnigramTraining(text.split("\n"), config)
    own.run()
    sample = "Alice was beginning to get very tired"
    assert finished.tokenizer.encode(sample) == own.tokenizer().encode(sample)
    assert [finished.tokenizer.token_str(i) for i in range(finished.tokenizer.vocab_size)] == [p for p, _ in own.pieces]
