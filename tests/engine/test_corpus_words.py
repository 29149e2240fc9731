"""The word table the app trains and steps on: its fast build (whole-list operations, the counter's
fast splitter on cut segments) gives exactly the table of the piece-by-piece build, for every
built-in pre-tokenizer, on any text -- spans, first pieces and counts included."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.corpus.cut import CorpusWords
from bpe_engine.corpus.fast_split import split_in_segments, text_segments
from bpe_engine.pretokenizers import CL100K, END_OF_WORD, GPT2, NONE, O200K, WHITESPACE, custom

PRE_TOKENIZERS = (GPT2, CL100K, O200K, WHITESPACE, END_OF_WORD, NONE, custom(r"\w+"), custom(r"\w+|\s"))
FIELDS = ("texts", "counts", "piece_words", "piece_starts", "piece_ends", "first_piece", "characters")
TEXT = st.lists(st.sampled_from(list("ab cd  ,.'\n\t1é한😀\u00a0\r") + ["'s", " 12", "ab "]), max_size=200).map("".join)


def same_table(a: CorpusWords, b: CorpusWords) -> bool:
    return all(getattr(a, name) == getattr(b, name) for name in FIELDS)


@settings(max_examples=60, deadline=None)
@given(TEXT)
def test_fast_table_equals_the_piece_by_piece_table(text: str) -> None:
    for pre in PRE_TOKENIZERS:
        assert same_table(CorpusWords.from_text(text, pre), CorpusWords._from_spans(text, pre, None)), pre.name


@settings(max_examples=30, deadline=None)
@given(TEXT.map(lambda t: t * 40))
def test_segments_cut_where_no_piece_crosses(text: str) -> None:
    """Small segments force many cuts: the pieces of the parts are the pieces of the whole."""
    for pre in (GPT2, CL100K, O200K, END_OF_WORD):
        parts = list(text_segments(text, pre, size=16))
        assert "".join(parts) == text
        assert [p for part in parts for p in pre.split(part)] == pre.split(text), pre.name
    for pre in PRE_TOKENIZERS:
        assert split_in_segments(text, pre) == pre.split(text), pre.name


def test_a_long_mixed_corpus_cut_in_segments_gives_the_same_table() -> None:
    from pathlib import Path

    data = Path(__file__).parents[1] / "data"
    text = (data / "alice29.txt").read_text(encoding="utf-8") + (data / "constitution.txt").read_text(encoding="utf-8")
    assert len(list(text_segments(text, GPT2))) > 5
    for pre in PRE_TOKENIZERS:
        assert same_table(CorpusWords.from_text(text, pre), CorpusWords._from_spans(text, pre, None)), pre.name
