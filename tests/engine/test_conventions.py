"""The textbook conventions, exact: SentencePiece's ▁ and both </w> conventions, in every trainer."""

from __future__ import annotations

import pytest

from bpe_engine.corpus import count_words, read_documents
from bpe_engine.errors import ConfigError
from bpe_engine.explore.stepper import Stepper
from bpe_engine.pretokenizers import (
    END_OF_WORD,
    END_OF_WORD_SEPARATE,
    GPT2,
    SENTENCEPIECE_SPACES,
    WHITESPACE,
    with_end_of_word,
)
from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining, train
from bpe_engine.training.naive_bpe import train_naive
from tests.oracles import require

LOW = ["low low low lower"]


def merges_of(pre, vocab_size: int = 30, tie_break: str = "hf") -> list[tuple[str, str]]:
    config = BpeTrainerConfig(vocab_size=vocab_size, byte_level=False, pre_tokenizer=pre, tie_break=tie_break)
    return [(s.left, s.right) for s in train(LOW, config, workers=1).steps]


@pytest.mark.parametrize("tie_break", ["hf", "lexicographic", "first-seen"])  # greatest: (o, w) first
def test_textbook_low_lower_in_both_end_of_word_conventions(tie_break: str) -> None:
    # Sennrich et al. 2016's listing (separate) and subword-nmt / HF (attached), as tutorials print them.
    assert merges_of(END_OF_WORD_SEPARATE, tie_break=tie_break)[:3] == [("l", "o"), ("lo", "w"), ("low", "</w>")]
    assert merges_of(END_OF_WORD, tie_break=tie_break)[:2] == [("l", "o"), ("lo", "w</w>")]
    for pre in (END_OF_WORD, END_OF_WORD_SEPARATE):  # the naive oracle prints the same
        config = BpeTrainerConfig(vocab_size=30, byte_level=False, pre_tokenizer=pre, tie_break=tie_break)
        wc = count_words(LOW, pre, byte_level=False, workers=1)
        assert [(s.left, s.right) for s in train_naive(wc, config)] == merges_of(pre, tie_break=tie_break)


def test_end_of_word_is_a_plain_config_value() -> None:
    config = BpeTrainerConfig(vocab_size=30, byte_level=False, pre_tokenizer=END_OF_WORD, end_of_word="separate")
    assert config.pre_tokenizer is END_OF_WORD_SEPARATE
    assert with_end_of_word(END_OF_WORD_SEPARATE, "attached") is END_OF_WORD
    with pytest.raises(ConfigError, match="end-of-word pre-tokenizer"):
        BpeTrainerConfig(vocab_size=300, pre_tokenizer=GPT2, end_of_word="separate")
    with pytest.raises(ConfigError, match="train it character-level"):
        BpeTrainerConfig(vocab_size=300, byte_level=True, pre_tokenizer=END_OF_WORD)


@pytest.mark.parametrize("pre", [END_OF_WORD, END_OF_WORD_SEPARATE])
def test_both_conventions_encode_and_decode_as_they_train(pre) -> None:
    tok = train(["low low low lower lowest newest"], BpeTrainerConfig(vocab_size=40, byte_level=False, pre_tokenizer=pre)).tokenizer
    text = "lowest  low\nnewer"
    encoding = tok.encode_detailed(text)
    assert tok.decode(encoding.ids) == "lowest low newer"  # whitespace becomes one word break (documented)
    assert [text.encode()[s:e].decode() for s, e in encoding.byte_spans if e > s][0].startswith("low")
    stepper = Stepper.from_text(text, pre, byte_level=False, merges=[(a, b, a + b) for a, b in tok.merges])
    stepper.seek(stepper.available)
    assert stepper.token_count == len(encoding.ids)  # the explorer's segmentation is the encoder's


# -- SentencePiece-style ▁ ---------------------------------------------------------------------
def test_every_sentencepiece_whitespace_is_a_word_boundary() -> None:
    for ch in SENTENCEPIECE_SPACES:
        assert WHITESPACE.split(f"a{ch}b") == ["▁a", "▁b"], repr(ch)
    # nmt_nfkc deletes these controls (so they join, not split) and keeps U+0085 as a character
    for ch in "\x0b\x1c\x1f\x85":
        assert WHITESPACE.split(f"a{ch}b") == [f"▁a{ch}b"], repr(ch)
    pieces = WHITESPACE.pieces("a\tb\n\nc")
    assert pieces == [("▁a", 0, 1), ("▁b", 1, 3), ("▁", 3, 4), ("▁c", 4, 6)]  # one ▁ per character: spans exact


def test_the_boundaries_are_sentencepieces_own() -> None:
    spm = require("sentencepiece")
    normalizer = spm.SentencePieceNormalizer(rule_name="nmt_nfkc")
    probe = [chr(c) for c in (*range(0x3100), 0xFEFF, 0xFFFD, 0xFF01, 0x1F600)]
    spaces = {ch for ch in probe if ch != "\u2581" and normalizer.normalize(f"a{ch}b") == "a b"}
    assert spaces == set(SENTENCEPIECE_SPACES)


def test_a_corpus_of_lines_trains_no_newline_into_its_words(tmp_path) -> None:
    # Lines used to train merges like 다 + \n and words like ▁공부한다\n우리.
    corpus = tmp_path / "ko.txt"
    corpus.write_text("나는 공부한다\n우리는 공부한다\n\t너도 공부한다\n" * 20, encoding="utf-8")
    for lines in (False, True):
        wc = count_words(read_documents([corpus], lines=lines), WHITESPACE, byte_level=False, workers=1)
        assert not [w for w in wc.counts if any(ch in w for ch in "\n\t")]
        assert wc.counts["▁공부한다"] == 60
        training = BpeTraining(wc, BpeTrainerConfig(vocab_size=60, byte_level=False, pre_tokenizer=WHITESPACE))
        assert not [s for s in training.steps() if any(ch in s.new for ch in "\n\t")]
