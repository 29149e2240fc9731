"""A big corpus held in blocks: the same text, the same reading errors, the same
cut, facts and stepping as the one ``str`` it replaces -- and narrow blocks where the text is."""

from __future__ import annotations

import doctest
import importlib
import pickle
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.core.block_text import BlockText, blank, distinct_symbols, utf8_length
from bpe_engine.corpus import stats_of_words
from bpe_engine.corpus.cut import CorpusWords, NextStarts
from bpe_engine.corpus.fast_split import text_segments
from bpe_engine.errors import CorpusError
from bpe_engine.explore.stepper import Stepper
from bpe_engine.pretokenizers import CL100K, END_OF_WORD, GPT2, NONE, WHITESPACE, custom
from bpe_engine.core.text_files import read_text_blocks, read_text_file

TEXT = st.lists(st.sampled_from(list("ab cd  ,.'\n\t1é한😀\u00a0\r") + ["'s", " 12", "ab "]), max_size=120).map("".join)
FIELDS = ("texts", "counts", "piece_words", "piece_starts", "piece_ends", "first_piece", "characters")


@pytest.mark.parametrize("name", ["core.block_text", "corpus.cut", "explore.corpus_pieces", "explore.word_changes"])
def test_module_doctests(name: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(f"bpe_engine.{name}"), verbose=False)
    assert failures == 0 and tried > 0


@settings(max_examples=80, deadline=None)
@given(TEXT, st.integers(1, 9), st.integers(-3, 130), st.integers(-3, 130))
def test_a_block_text_answers_as_its_str(text: str, size: int, a: int, b: int) -> None:
    blocks = BlockText.of(text, block_chars=size)
    assert len(blocks) == len(text) and str(blocks) == text and blocks == text and text == blocks
    assert blocks[a:b] == text[a:b]
    for sub in ("\n", "a", "ab", " \n"):
        assert blocks.find(sub, a, b) == text.find(sub, a, b)
        assert blocks.rfind(sub, a, b) == text.rfind(sub, a, b)
    assert hash(blocks) == hash(text)
    assert pickle.loads(pickle.dumps(blocks)) == blocks
    assert blank(blocks) == (not text.strip())
    raw = text.encode("utf-8")
    assert utf8_length(blocks) == len(raw) and distinct_symbols(blocks) == (len(set(text)), len(set(raw)))


@settings(max_examples=40, deadline=None)
@given(TEXT.map(lambda t: t * 5), st.integers(1, 40))
def test_a_block_text_is_cut_into_the_same_table(text: str, size: int) -> None:
    blocks = BlockText.of(text, block_chars=size)
    for pre in (GPT2, CL100K, END_OF_WORD, WHITESPACE, NONE, custom(r"\w+|\s")):
        want, got = CorpusWords.from_text(text, pre), CorpusWords.from_text(blocks, pre)
        assert all(getattr(got, f) == getattr(want, f) for f in FIELDS), pre.name
        assert stats_of_words(blocks, got) == stats_of_words(text, want)
    assert "".join(text_segments(blocks, GPT2, size=4)) == text


def test_only_the_blocks_holding_a_wide_character_are_wide() -> None:
    text = "plain ascii words " * 20_000 + "😀" + "more plain words " * 20_000
    blocks = BlockText.of(text)
    assert sys.getsizeof(text) > 4 * len(text), "the str is 4 bytes per character for one emoji"
    assert sum(map(sys.getsizeof, blocks.blocks)) < 1.2 * len(text) + 4 * blocks.block_chars


def test_reading_in_blocks_gives_the_text_and_the_errors_of_the_one_reader(tmp_path) -> None:  # noqa: ANN001
    good = tmp_path / "good.txt"
    good.write_bytes(("a\r\nb é 한 😀 " * 50_000).encode("utf-8") + b"\xef\xbb\xbf")
    assert read_text_blocks(good) == read_text_file(good)
    for name, data in {"bad.txt": "x😀".encode() * 300_000 + b"\xff", "cut.txt": b"ab" * 700_000 + "한".encode()[:2],
                       "bin.txt": b"\x89PNG\x00"}.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(CorpusError) as want:
            read_text_file(path)
        with pytest.raises(CorpusError) as got:
            read_text_blocks(path)
        assert str(got.value) == str(want.value)


def test_the_stepper_reads_the_cut_in_place() -> None:
    """The stepper's pieces are views of the cut's own bytes: no second copy of ~12 bytes a piece,
    and no ends at all where each piece ends where the next starts."""
    words = CorpusWords.from_text(BlockText.of("the cat the hat " * 50, block_chars=7), GPT2)
    stepper = Stepper.from_words(words, byte_level=True, merges=[("t", "h", "th"), ("th", "e", "the")])
    pieces = stepper.pieces
    assert pieces.words.obj is words.piece_words and pieces.starts.obj is words.piece_starts  # type: ignore[attr-defined]
    assert words.piece_ends == b"" and isinstance(pieces.ends, NextStarts), "ends follow from the starts"
    assert list(pieces.ends) == [*pieces.starts[1:], words.characters]
    stepper.seek(2)
    assert list(stepper.window("", 0, 8)) == [(0, 3, ("the",)), (3, 7, ("Ġ", "c", "a", "t")), (7, 11, ("Ġ", "the"))]
    assert stepper.focus() == 0


def test_the_training_child_is_sent_the_words_without_their_places() -> None:
    from bpe_engine.training.bpe import BpeTrainerConfig
    from bpe_engine.training.runner import TrainingRequest

    text = BlockText.of("low lower lowest " * 100)
    words = CorpusWords.from_text(text, GPT2)
    request = TrainingRequest(text, BpeTrainerConfig(vocab_size=300, pre_tokenizer=GPT2), words=words)
    sent = pickle.loads(pickle.dumps(request.for_child()))
    assert sent.cut_words() is not None and sent.cut_words().piece_words == b""
    assert sent.cut_words().word_counts(byte_level=True) == words.word_counts(byte_level=True)
    assert sent.text == text
