"""WordPiece by count is Hugging Face's ``WordPieceTrainer``: the same vocabulary, token for token and
id for id, on the English and Korean test corpora and on hypothesis corpora.

HF numbers the ``##c`` symbols in the hash order of its word table, which changes from run to run
(tokenizers#1794); we number them by code point. To compare the two exactly, both sides are given the
``##c`` symbols up front, as special tokens after BERT's five: then every id is fixed on both sides
and nothing is left to hash order, and the rest of the algorithm -- alphabet, words, counts, the merge
loop, its tie-break and bookkeeping -- must agree to the last token."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.training.wordpiece import WordPieceTrainerConfig, WordPieceTraining, count_bert_words
from bpe_engine.wordpiece import BERT_SPECIALS
from tests.oracles import require

tokenizers = require("tokenizers")


def fixed_specials(counts: dict[str, int]) -> tuple[str, ...]:
    """BERT's specials, then every ``##c`` the words need, by code point."""
    return (*BERT_SPECIALS, *sorted({"##" + c for w in counts for c in w[1:]}))


def hf_vocab(text: str, vocab_size: int, specials: tuple[str, ...], **options: int) -> dict[str, int]:
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=list(specials), show_progress=False, **options)
    tok.train_from_iterator([text], trainer)
    vocab: dict[str, int] = json.loads(tok.to_str())["model"]["vocab"]
    return vocab


def our_training(text: str, vocab_size: int, specials: tuple[str, ...], **options: int) -> WordPieceTraining:
    config = WordPieceTrainerConfig(vocab_size=vocab_size, special_tokens=specials, **options)  # merge_by="count" is the default
    training = WordPieceTraining(count_bert_words([text]), config)
    list(training.steps())
    return training


@pytest.mark.parametrize(
    ("source", "vocab_size", "options"),
    [
        ("alice", 4_000, {"min_frequency": 2}),
        ("alice", 2_500, {"min_frequency": 0}),
        ("korean", 3_000, {"min_frequency": 2}),
        ("korean", 1_200, {"min_frequency": 0, "limit_alphabet": 40}),
        ("alice", 1_500, {"min_frequency": 1, "limit_alphabet": 30}),
    ],
)
def test_vocabulary_equals_hf_wordpiece_trainer(alice_text: str, korean_text: str, source: str, vocab_size: int, options: dict[str, int]) -> None:
    text = alice_text if source == "alice" else korean_text
    counts = count_bert_words([text])
    if "limit_alphabet" in options:  # HF's unstable sort picks arbitrarily among equal counts at the cut
        freq: dict[str, int] = {}
        for word, n in counts.items():
            for ch in word:
                freq[ch] = freq.get(ch, 0) + n
        ranked = sorted(freq.values(), reverse=True)
        assert ranked[options["limit_alphabet"] - 1] != ranked[options["limit_alphabet"]]
    specials = fixed_specials(counts)
    training = our_training(text, vocab_size, specials, **options)
    assert training.vocab == hf_vocab(text, vocab_size, specials, **options)
    assert len(training.vocab) > len(specials) + 500  # a real training, not the alphabet alone


words = st.lists(st.text(alphabet="abcdeé한글 ", min_size=1, max_size=12), min_size=1, max_size=60).map(" ".join)


@settings(max_examples=60)
@given(words, st.integers(min_value=1, max_value=120), st.sampled_from([0, 1, 2, 3]))
def test_any_corpus_equals_hf_wordpiece_trainer(text: str, vocab_size: int, min_frequency: int) -> None:
    specials = fixed_specials(count_bert_words([text]))
    training = our_training(text, vocab_size, specials, min_frequency=min_frequency)
    assert training.vocab == hf_vocab(text, vocab_size, specials, min_frequency=min_frequency)


def test_steps_merge_by_count_and_say_how_ties_were_broken(alice_text: str) -> None:
    training = WordPieceTraining(count_bert_words([alice_text]), WordPieceTrainerConfig(vocab_size=600))
    steps = list(training.steps())
    assert [s.count for s in steps[:50]] == sorted((s.count for s in steps[:50]), reverse=True)  # no id reuse this early
    assert all(s.why.quantity == "count" and s.score is None for s in steps)
    tied = next(s for s in steps if s.why.is_tie)
    assert tied.why.rule is not None and tied.why.rule.startswith("hf:")
    assert (steps[0].left, steps[0].right, steps[0].new) == ("##h", "##e", "##he")  # as in HF's vocabulary above
    assert training.tokenizer().tokenize_word("the") == ["the"]


def test_the_continued_symbols_are_numbered_by_code_point() -> None:
    training = WordPieceTraining({"ba": 3, "ca": 2, "ab": 1}, WordPieceTrainerConfig(vocab_size=1))
    assert list(training.vocab) == [*BERT_SPECIALS, "a", "b", "c", "##a", "##b"]  # no ##c: c never continues a word


def test_same_vocabulary_in_another_process(alice_text: str) -> None:
    """No hash order enters: processes with different PYTHONHASHSEED train the same vocabulary."""
    code = (
        "import json,sys; from bpe_engine.training.wordpiece import *; "
        "t=WordPieceTraining(count_bert_words([sys.stdin.read()]), WordPieceTrainerConfig(vocab_size=900)); "
        "list(t.steps()); print(json.dumps(t.vocab))"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", code], input=alice_text[:40_000], capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(runs) == 1
