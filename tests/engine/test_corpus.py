"""Reading documents and counting words: order, specials, invalid UTF-8, parallel == serial."""

from __future__ import annotations

import io
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.core.byte_table import token_str_to_bytes
from bpe_engine.corpus import Document, corpus_stats, count_words, parallel, read_documents, stats_of_words, tally
from bpe_engine.corpus.counting import count_unit
from bpe_engine.corpus.cut import CorpusWords
from bpe_engine.errors import CorpusError
from bpe_engine.pretokenizers import BUILTIN, GPT2, HF_GPT2


def test_read_documents_files_and_lines(tmp_path) -> None:
    a = tmp_path / "a.txt"
    a.write_bytes(b"one\ntwo\r\nthree\rfour")
    b = tmp_path / "b.txt"
    b.write_bytes(b"\xffraw")
    docs = read_documents([a, b])
    assert [d.data for d in docs] == [b"one\ntwo\r\nthree\rfour", b"\xffraw"]
    lines = read_documents([a], lines=True)
    assert [d.data for d in lines] == [b"one\n", b"two\r\n", b"three\rfour"]  # as HF reads: \n ends a line
    assert [(d.line, d.offset) for d in lines] == [(1, 0), (2, 4), (3, 9)]


def test_lines_after_an_empty_file_are_still_lines(tmp_path) -> None:
    """An empty first file used to turn every later file into one document."""
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    other = tmp_path / "other.txt"
    other.write_bytes(b"one\ntwo\n")
    docs = read_documents([empty, other], lines=True)
    assert [(d.source, d.data, d.line) for d in docs] == [(str(other), b"one\n", 1), (str(other), b"two\n", 2)]


def test_read_documents_stdin(monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"from stdin")))
    (doc,) = read_documents(["-"])
    assert doc.source == "<stdin>" and doc.data == b"from stdin"


def test_missing_file_is_a_corpus_error(tmp_path) -> None:
    with pytest.raises(CorpusError, match="cannot read corpus file"):
        read_documents([tmp_path / "nope.txt"])


def test_words_in_order_of_first_appearance() -> None:
    wc = count_words(["b a b", "c a"], GPT2, byte_level=False)
    assert list(wc.counts.items()) == [("b", 1), (" a", 2), (" b", 1), ("c", 1)]
    assert wc.total_words == 5 and wc.documents == 2


def test_byte_level_words_are_in_the_gpt2_alphabet() -> None:
    wc = count_words(["hi 한"], GPT2, byte_level=True)
    assert list(wc.counts) == ["hi", "Ġíķľ"]


def test_special_tokens_are_cut_out_before_pre_tokenizing() -> None:
    wc = count_words(["a<|x|>b a<|x|>"], GPT2, ["<|x|>"], byte_level=False)
    assert dict(wc.counts) == {"a": 1, "b": 1, " a": 1}


def test_invalid_utf8_byte_level_keeps_the_bytes() -> None:
    data = b"ab\xff\xfe cd \xc3"
    wc = count_words([Document("bad.bin", data)], GPT2, byte_level=True)
    restored = b"".join(token_str_to_bytes(w) * n for w, n in wc.counts.items())
    assert sorted(restored) == sorted(data)
    assert token_str_to_bytes("".join(wc.counts)) == data  # each word once here, in order


def test_invalid_utf8_char_level_names_file_and_offset() -> None:
    doc = Document("corpus.txt", b"line\nbad \xff here", offset=100, line=7)
    with pytest.raises(CorpusError, match=r"corpus\.txt, line 7, byte offset 109.*byte-level.*iconv"):
        count_words([doc], GPT2, byte_level=False)
    wc = count_words([doc], GPT2, byte_level=False, errors="replace")
    assert " \ufffd" in wc.counts


def test_str_documents_with_lone_surrogates_are_refused_for_byte_level() -> None:
    with pytest.raises(CorpusError, match="lone surrogate"):
        count_words(["a\ud800b"], GPT2, byte_level=True)


def test_parallel_counting_equals_serial(monkeypatch) -> None:
    text = " ".join(f"w{i % 97} x{i % 13}, y{i}" for i in range(20_000)) + "\n\n  tail  "
    docs = [text, "second doc here", text[:5000]]
    serial = count_words(docs, HF_GPT2, byte_level=True, workers=1)
    monkeypatch.setattr(tally, "PARALLEL_THRESHOLD", 1000)
    monkeypatch.setattr(tally, "BLOCK_BYTES", 20_000)
    used = []
    real = parallel.ordered_map
    monkeypatch.setattr(parallel, "ordered_map", lambda *a: used.append(real(*a)) or used[-1])
    forked = count_words(docs, HF_GPT2, byte_level=True, workers=2)
    assert used and used[0] is not None  # the forked workers really counted
    assert list(forked.counts.items()) == list(serial.counts.items())


def test_parallel_counting_of_many_documents_reports_bad_utf8(monkeypatch, tmp_path) -> None:
    path = tmp_path / "lines.txt"
    path.write_bytes(b"good line\n" * 3000 + b"bad \xff\n" + b"tail\n")
    monkeypatch.setattr(tally, "PARALLEL_THRESHOLD", 1000)
    monkeypatch.setattr(tally, "BLOCK_BYTES", 2000)
    docs = read_documents([path], lines=True)
    wc = count_words(docs, GPT2, byte_level=True, workers=2)
    assert wc.documents == 3002 and wc.counts["good"] == 3000 and wc.counts["Ġÿ"] == 1
    with pytest.raises(CorpusError, match=r"lines\.txt, line 3001, byte offset 30004"):
        count_words(docs, GPT2, byte_level=False, workers=2)


def test_no_fork_while_other_threads_run() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert parallel.ordered_map(count_unit, [], None, 2) is None
    finally:
        stop.set()
        thread.join()


def test_corpus_stats() -> None:
    stats = corpus_stats("hi hi 한", GPT2)
    assert stats.characters == 7 and stats.bytes == 9
    assert stats.words == 3 and stats.unique_words == 3  # 'hi', ' hi', ' 한'
    assert stats.distinct_characters == 4 and stats.distinct_bytes == 6  # h i space ED 95 9C


@pytest.mark.parametrize("pre", list(BUILTIN.values()), ids=list(BUILTIN))
def test_stats_of_the_cut_corpus_equal_the_stats_of_the_text(alice_text: str, korean_text: str, pre) -> None:  # noqa: ANN001
    """The app's facts line now comes from the cut corpus: the same figures as from the text."""
    text = "\ufeff" + alice_text[:20000] + "\r\n" + korean_text[:5000] + " \udcff tail  "
    assert stats_of_words(text, CorpusWords.from_text(text, pre)) == corpus_stats(text, pre)


@given(st.text(), st.sampled_from(list(BUILTIN.values())))
@settings(max_examples=150, deadline=None)
def test_stats_of_the_cut_corpus_equal_the_stats_of_any_text(text: str, pre) -> None:  # noqa: ANN001
    assert stats_of_words(text, CorpusWords.from_text(text, pre)) == corpus_stats(text, pre)
