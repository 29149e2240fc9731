"""A saved run keeps why: a Unigram save writes its seeds, EM steps and pruning rounds to
training.jsonl and reads them back equal, bit for bit; a merge log reads back as the steps that were
trained -- count, score, runner-up, ties and rule; ``merges`` on a Unigram directory says what it is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.formats import save_tokenizer
from bpe_engine.formats.training_log import read_training_log, steps_of
from bpe_engine.formats.unigram_log import read_unigram_log
from bpe_engine.pretokenizers import END_OF_WORD
from bpe_engine.registry import load_tokenizer
from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining
from bpe_engine.training.unigram import UnigramTrainerConfig, UnigramTraining
from bpe_engine.training.wordpiece import WordPieceTrainerConfig, WordPieceTraining


def test_a_unigram_save_keeps_every_step_bit_for_bit(tmp_path: Path, alice_text: str) -> None:
    training = UnigramTraining(alice_text.splitlines()[:800], UnigramTrainerConfig(vocab_size=300))
    steps = list(training.steps())
    assert {type(s).__name__ for s in steps} == {"SeedStep", "EmStep", "PruneStep", "FinalStep"}
    training.save(tmp_path / "trained", "alice", steps)
    assert read_unigram_log(tmp_path / "trained") == steps
    save_tokenizer(training.tokenizer("alice"), tmp_path / "app", steps=steps)  # the app's ctrl+s
    assert read_unigram_log(tmp_path / "app") == steps
    manifest = json.loads((tmp_path / "app" / "bpe-explorer.json").read_text(encoding="utf-8"))["manifest"]
    assert "training.jsonl" in manifest
    assert load_tokenizer(tmp_path / "app").encode("Alice was") == training.tokenizer("x").encode("Alice was")


def test_the_cli_saves_the_unigram_story_and_merges_says_what_it_is(tmp_path: Path, alice_text: str, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text(alice_text[:30_000], encoding="utf-8")
    assert main(["train", "--model", "unigram", "--vocab-size", "200", str(corpus), "-o", str(tmp_path / "u")]) == 0
    steps = read_unigram_log(tmp_path / "u")
    assert steps is not None and type(steps[0]).__name__ == "SeedStep" and type(steps[-1]).__name__ == "FinalStep"
    capsys.readouterr()
    assert main(["merges", str(tmp_path / "u")]) == 2
    assert "is a Unigram model" in capsys.readouterr().err


@pytest.mark.parametrize("model", ["bpe", "wordpiece"])
def test_a_merge_log_reads_back_as_the_steps_with_their_why(tmp_path: Path, model: str) -> None:
    text = "low " * 5 + "lowest " * 2 + "newer " * 6 + "wider " * 3 + "new " * 2
    if model == "bpe":
        training = BpeTraining([text], BpeTrainerConfig(vocab_size=40, byte_level=False, pre_tokenizer=END_OF_WORD, tie_break="first-seen"))
    else:
        training = WordPieceTraining([text], WordPieceTrainerConfig(vocab_size=40, merge_by="score", min_frequency=1))
    steps = list(training.steps())
    save_tokenizer(training.tokenizer("t"), tmp_path / model, steps=steps)
    records = read_training_log(tmp_path / model)
    assert records is not None
    back = steps_of(records, training.vocab)
    fields = ("rank", "left", "right", "new", "left_id", "right_id", "new_id", "count", "words_changed", "score", "why")
    assert [tuple(getattr(s, f) for f in fields) for s in back] == [tuple(getattr(s, f) for f in fields) for s in steps]
    assert any(s.why is not None and s.why.is_tie for s in back)  # the = marks come back


def test_a_loaded_bpe_replays_with_its_saved_why_where_the_corpus_is_the_same(tmp_path: Path) -> None:
    from bpe_engine.formats.training_log import saved_steps
    from bpe_engine.training.runner import Finished, Steps, replay_events

    text = "low " * 5 + "lowest " * 2 + "newer " * 6 + "wider " * 3 + "new " * 2
    training = BpeTraining([text], BpeTrainerConfig(vocab_size=40, byte_level=False, pre_tokenizer=END_OF_WORD, tie_break="first-seen"))
    trained = list(training.steps())
    save_tokenizer(training.tokenizer("t"), tmp_path / "t", steps=trained)
    loaded = load_tokenizer(tmp_path / "t")
    saved = saved_steps(tmp_path / "t", loaded.vocab)
    assert saved is not None and saved_steps("gpt2", {}) is None

    def replayed(corpus: str) -> tuple[list, tuple[str, ...]]:  # type: ignore[type-arg]
        events = list(replay_events(loaded, corpus, saved=saved))
        steps = [s for e in events if isinstance(e, Steps) for s in e.steps]
        return steps, next(e for e in events if isinstance(e, Finished)).notes

    same, notes = replayed(text)
    assert [s.why for s in same] == [s.why for s in trained] and notes == ()
    assert any(s.why is not None and s.why.is_tie for s in same)  # the step list's = marks come back
    other, notes = replayed(text + "lowest " * 9)
    assert other[0].why is None or other[0].count == trained[0].count
    assert notes and "parts from it at merge" in notes[0]
    parted = int(notes[0].split("merge ")[1].split(",")[0])
    assert all(s.why is None for s in other[parted - 1:])
