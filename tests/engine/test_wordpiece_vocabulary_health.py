"""A WordPiece vocabulary that cannot be used says so when training ends: the score rule on real text
leaves frequent words split and much of its vocabulary unused, and the notes say what to try; HF's
rule (merge by count) on the same text draws no warning, nor does a vocabulary too small to judge."""

from __future__ import annotations

from functools import partial
from unicodedata import normalize

from bpe_engine.training.wordpiece import WordPieceTrainerConfig, WordPieceTraining, count_bert_words

nfd = partial(normalize, "NFD")


def notes_of(text: str, vocab_size: int, merge_by: str) -> list[str]:
    training = WordPieceTraining(count_bert_words([text]), WordPieceTrainerConfig(vocab_size=vocab_size, merge_by=merge_by))  # type: ignore[arg-type]
    list(training.steps())
    return training.notes


def test_the_score_rule_on_english_is_flagged_and_told_what_to_try(alice_text: str) -> None:
    notes = " | ".join(notes_of(alice_text, 1_000, "score"))
    assert "degenerate vocabulary: 7 of the 10 most frequent words are not single tokens ('the' -> th ##e" in notes
    assert "much of the vocabulary is unused: " in notes and "never occur when the corpus is encoded" in notes
    assert "merge by count (Hugging Face's WordPieceTrainer)" in notes


def test_the_score_rule_on_english_and_korean_names_the_jamo(alice_text: str, korean_text: str) -> None:
    notes = " | ".join(notes_of(alice_text[:10_000] + korean_text, 2_000, "score"))
    # BERT's uncased front end splits Hangul into jamo; the score then leaves frequent words in pieces of them
    assert "degenerate vocabulary: 5 of the 10 most frequent words" in notes and f"'{nfd('의하여')}' -> \u110b ##\u1174 ##\u1112 ##\u1161 ##\u110b ##\u1167" in notes


def test_merging_by_count_makes_a_usable_vocabulary(alice_text: str, korean_text: str) -> None:
    for text in (alice_text, alice_text[:60_000] + korean_text):
        notes = notes_of(text, 2_000, "count")
        assert len(notes) == 1 and notes[0].startswith("reached the vocabulary size"), notes


def test_a_vocabulary_too_small_to_judge_draws_no_warning(alice_text: str) -> None:
    notes = notes_of(alice_text, 150, "score")  # about a hundred merges: everything is still split
    assert not any("vocabulary" in n and ("degenerate" in n or "unused" in n) for n in notes), notes
