"""WordPiece training by score (count(ab) / (count(a) count(b))): the incremental trainer against the naive recount-everything oracle."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.corpus import count_words
from bpe_engine.errors import ConfigError
from bpe_engine.pretokenizers import GPT2
from bpe_engine.training.steps import MergeStep
from bpe_engine.training.wordpiece import WordPieceTrainerConfig, WordPieceTraining, count_bert_words, train_wordpiece
from bpe_engine.training.wordpiece.naive import reference_steps, reference_vocab

ROOT = Path(__file__).parents[2]
# The HF course example: hug, pug, pun, bun, hugs.
HUGS = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


def fast_steps(counts, config) -> list[MergeStep]:
    return list(WordPieceTraining(counts, config).steps())


def test_golden_course_example() -> None:
    config = WordPieceTrainerConfig(merge_by="score", vocab_size=23, min_frequency=0)
    steps = fast_steps(HUGS, config)
    # ##g ##s: 5 / (20 * 5) = 1/20. Then five pairs tie at 1/36 (h ##u, p ##u, b ##u, ##u ##g,
    # ##u ##n); the higher count wins: p ##u (17).
    assert (steps[0].left, steps[0].right, steps[0].new, steps[0].score) == ("##g", "##s", "##gs", 1 / 20)
    assert (steps[1].left, steps[1].right, steps[1].new, steps[1].count) == ("p", "##u", "pu", 17)
    assert steps[1].score == 1 / 36
    assert steps[0].words_changed == 1 and steps[0].occurrences == 5
    assert steps == list(reference_steps(HUGS, config))


def test_initial_vocabulary_is_specials_then_both_forms_of_each_character() -> None:
    training = WordPieceTraining({"ab": 1}, WordPieceTrainerConfig(merge_by="score", vocab_size=1))
    assert list(training.vocab) == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "##a", "##b", "a", "b"]
    assert training.alphabet == ("##a", "##b", "a", "b") and training.target_merges == 0
    assert list(training.steps()) == []
    assert "no merges" in training.notes[-1]


@pytest.mark.parametrize(
    ("source", "chars", "vocab_size", "min_frequency", "limit_alphabet"),
    [
        ("alice", 20_000, 450, 2, None),
        ("alice", 10_000, 350, 0, 40),
        ("korean", 5_000, 350, 2, None),
        pytest.param("alice", 60_000, 900, 2, None, marks=pytest.mark.slow),
        pytest.param("korean", 20_000, 800, 1, None, marks=pytest.mark.slow),
    ],
)
def test_matches_oracle_on_sample_corpora(alice_text, korean_text, source, chars, vocab_size, min_frequency, limit_alphabet) -> None:
    text = (alice_text if source == "alice" else korean_text)[:chars]
    counts = count_bert_words([text])
    config = WordPieceTrainerConfig(merge_by="score", vocab_size=vocab_size, min_frequency=min_frequency, limit_alphabet=limit_alphabet)
    training = WordPieceTraining(counts, config)
    steps = list(training.steps())
    assert steps, "the sample must produce merges"
    assert steps == list(reference_steps(counts, config))
    assert training.vocab == reference_vocab(counts, config)


@settings(max_examples=150, deadline=None)
@given(
    words=st.dictionaries(st.text(alphabet="abcdé한", min_size=1, max_size=7), st.integers(1, 6), min_size=1, max_size=12),
    vocab_size=st.integers(1, 40),
    min_frequency=st.integers(0, 3),
    limit_alphabet=st.one_of(st.none(), st.integers(1, 6)),
)
def test_matches_oracle_on_generated_corpora(words, vocab_size, min_frequency, limit_alphabet) -> None:
    config = WordPieceTrainerConfig(merge_by="score", vocab_size=vocab_size, min_frequency=min_frequency, limit_alphabet=limit_alphabet)
    training = WordPieceTraining(words, config)
    assert list(training.steps()) == list(reference_steps(words, config))
    assert training.vocab == reference_vocab(words, config)


def test_occurrences_count_the_tokens_saved() -> None:
    counts = count_bert_words(["the cat sat on the mat, the hat sat on the cat; aaaa aaa"])
    config = WordPieceTrainerConfig(merge_by="score", vocab_size=60, min_frequency=1)
    training = WordPieceTraining(counts, config)
    steps = list(training.steps())
    words = {w: [w[0], *("##" + c for c in w[1:])] for w in counts}
    before = sum(len(s) * counts[w] for w, s in words.items())
    for step in steps:
        for w, symbols in words.items():
            out, i = [], 0
            while i < len(symbols):
                if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == (step.left, step.right):
                    out.append(step.new)
                    i += 2
                else:
                    out.append(symbols[i])
                    i += 1
            words[w] = out
    after = sum(len(s) * counts[w] for w, s in words.items())
    assert before - after == sum(s.occurrences for s in steps)
    assert all(s.score is not None and 0 < s.score <= 1 for s in steps)
    assert [s.rank for s in steps] == list(range(len(steps)))


def test_steps_are_resumable() -> None:
    config = WordPieceTrainerConfig(merge_by="score", vocab_size=40, min_frequency=1)
    whole = fast_steps(HUGS, config)
    training = WordPieceTraining(HUGS, config)
    first = [step for _, step in zip(range(3), training.steps())]
    rest = list(training.steps())
    assert first + rest == whole and training.finished
    assert training.merges == [(s.left, s.right) for s in whole]


def test_stops_below_min_frequency_with_a_note() -> None:
    training = WordPieceTraining(HUGS, WordPieceTrainerConfig(merge_by="score", vocab_size=1000, min_frequency=1000))
    assert list(training.steps()) == []
    assert "1000 times (the minimum frequency)" in training.notes[-1]


def test_words_outside_the_alphabet_are_left_out_with_a_note() -> None:
    training = WordPieceTraining({"aaa": 10, "aab": 1, "x" * 101: 3}, WordPieceTrainerConfig(merge_by="score", vocab_size=20, limit_alphabet=1))
    assert "##b" not in training.vocab
    notes = " ".join(training.notes)
    assert "limit_alphabet=1" in notes and "outside the alphabet" in notes and "longer than 100" in notes


def test_trained_tokenizer_encodes_with_the_bert_front_end(alice_text: str) -> None:
    tok = train_wordpiece([alice_text[:20000]], WordPieceTrainerConfig(merge_by="score", vocab_size=400))
    assert tok.vocab_size == 400
    assert tok.special_tokens == {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4}
    ids = tok.encode("ALICE was beginning", add_special_tokens=True)
    assert ids[0] == 2 and ids[-1] == 3 and tok.unk_id not in ids
    assert tok.decode(ids, skip_special_tokens=True) == "alice was beginning"


def test_app_path_with_a_bpe_pre_tokenizer() -> None:
    counts = count_words(["the cat and the hat"], GPT2, byte_level=False, workers=1)
    training = WordPieceTraining(counts, WordPieceTrainerConfig(merge_by="score", vocab_size=50, pre_tokenizer=GPT2, min_frequency=1))
    steps = list(training.steps())
    assert any(step.new == "Ġ" or step.new.startswith(" ") for step in steps) or steps
    tok = training.tokenizer()
    assert tok.encode("the hat", add_special_tokens=False) == [tok.token_to_id(t) for t in tok.words("the hat") for t in tok.tokenize_word(t)]


def test_config_errors_say_what_to_fix() -> None:
    with pytest.raises(ConfigError, match="vocabulary size") as refused:
        WordPieceTrainerConfig(merge_by="score", vocab_size=-1)
    assert refused.value.field == "vocab_size"
    with pytest.raises(ConfigError, match="one of the special tokens") as refused:
        WordPieceTrainerConfig(merge_by="score", special_tokens=("[PAD]",))
    assert refused.value.field == "unk_token"
    with pytest.raises(ConfigError, match="byte_level=False"):
        WordPieceTraining(count_words(["x"], GPT2, byte_level=True, workers=1))


def test_same_vocabulary_in_another_process() -> None:
    """No hash order enters: a different PYTHONHASHSEED gives the same merges."""
    code = (
        "import json,sys; from bpe_engine.training.wordpiece import *; "
        "t=WordPieceTraining(count_bert_words([open(sys.argv[1]).read()[:8000]]), WordPieceTrainerConfig(merge_by='score', vocab_size=300)); "
        "print(json.dumps([(s.left, s.right) for s in t.steps()]))"
    )
    runs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", code, str(ROOT / "tests/data/alice29.txt")], env=env, cwd=ROOT,
                             capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout))
    assert runs[0] == runs[1] and runs[0]
