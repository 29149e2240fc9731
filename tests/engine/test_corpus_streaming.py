"""Counting files block by block: cut points never change the pieces, streamed counts equal
whole-file counts (order included), reading stays bounded, errors still name file, line, offset."""

from __future__ import annotations

import io
import os
import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.corpus import count_files, count_words, parallel, read_documents
from bpe_engine.corpus.blocks import CutRule
from bpe_engine.corpus.fast_split import ascii_twin, splitter
from bpe_engine.errors import CorpusError
from bpe_engine.pretokenizers import CL100K, END_OF_WORD, GPT2, HF_GPT2, NONE, O200K, WHITESPACE, split_specials

CUTTABLE = (GPT2, HF_GPT2, CL100K, O200K, END_OF_WORD)
SPECIALS = ("<|x|>", "a b", "é 1")
ALPHABET = list("ab1 .\n\t'sé한") + ["  ", "\r\n", "'ll", "<|x|>", "\xff"]


def pieces(text: str, pre, specials=(), *, lines=False) -> list[str]:
    docs = [d for d in text.replace("\n", "\n\0").split("\0") if d] if lines else [text]  # lines end at \n only
    return [p for d in docs for seg, sp in split_specials(d, specials) if not sp for p in pre.split(seg)]


def all_cuts(data: bytes, rule: CutRule) -> list[int]:
    cuts, c = [], rule.find(data, 1)
    while c != -1:
        cuts.append(c)
        c = rule.find(data, c + 1)
    return cuts


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), max_size=120).map("".join), st.booleans(), st.booleans())
def test_cutting_at_every_cut_point_never_changes_the_pieces(text: str, lines: bool, with_specials: bool) -> None:
    data = text.encode("utf-8", "surrogateescape")
    specials = SPECIALS if with_specials else ()
    for pre in (*CUTTABLE, WHITESPACE, NONE):
        rule = CutRule.for_job(pre, specials, lines=lines)
        cuts = all_cuts(data, rule)
        parts = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]
        assert b"".join(parts) == data
        got = [p for part in parts for p in pieces(part.decode("utf-8", "surrogateescape"), pre, specials, lines=lines)]
        assert got == pieces(text, pre, specials, lines=lines), (pre.name, cuts)
        if not rule.can_cut:
            assert cuts == []


def test_no_cut_inside_a_special_token_or_after_a_non_letter() -> None:
    rule = CutRule.for_job(GPT2, ("a b",), lines=False)
    assert all_cuts(b"xa b, c d", rule) == [7]  # not inside 'a b', not after ','
    assert all_cuts("한 국".encode(), rule) == [3]  # after a Korean letter (3 UTF-8 bytes)
    assert all_cuts(b"\xed\x95 x", rule) == []  # an incomplete character is no letter


@pytest.fixture
def corpus_file(tmp_path):
    lines = [f"line {i} has w{i % 37} and v{i % 11}, a<|x|>b\n" for i in range(400)]
    lines[123] = "trailing spaces   \n"
    lines[200] = "\n"
    path = tmp_path / "corpus.txt"
    path.write_bytes("".join(lines).encode() + "no newline at the end 한국어".encode())
    return path


@pytest.mark.parametrize("lines", [False, True])
@pytest.mark.parametrize("block_bytes", [7, 100, 1 << 20])
def test_streamed_counts_equal_whole_file_counts(corpus_file, lines, block_bytes) -> None:
    for pre, specials in ((HF_GPT2, ("<|x|>",)), (CL100K, ()), (WHITESPACE, ())):
        expected = count_words(read_documents([corpus_file], lines=lines), pre, specials, byte_level=True, workers=1)
        got = count_files([corpus_file], pre, specials, byte_level=True, lines=lines, workers=1, block_bytes=block_bytes)
        assert list(got.counts.items()) == list(expected.counts.items()), (pre.name, block_bytes)
        assert got.documents == expected.documents and got.total_words == expected.total_words


def test_streamed_counting_on_two_processes_equals_in_process(corpus_file, tmp_path, monkeypatch) -> None:
    other = tmp_path / "empty.txt"
    other.write_bytes(b"")
    files = [corpus_file, other, corpus_file]
    serial = count_files(files, GPT2, ("<|x|>",), byte_level=False, lines=True, workers=1, block_bytes=300)
    monkeypatch.setattr("bpe_engine.corpus.tally.PARALLEL_THRESHOLD", 100)
    used = []
    real = parallel.ordered_map
    monkeypatch.setattr(parallel, "ordered_map", lambda *a: used.append(real(*a)) or used[-1])
    forked = count_files(files, GPT2, ("<|x|>",), byte_level=False, lines=True, workers=2, block_bytes=300)
    assert used and used[0] is not None
    assert list(forked.counts.items()) == list(serial.counts.items())
    assert forked.documents == serial.documents == 2 * 401


def test_standard_input_is_streamed_too(corpus_file, monkeypatch) -> None:
    data = corpus_file.read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    got = count_files(["-"], GPT2, byte_level=True, lines=True, workers=1, block_bytes=64)
    expected = count_files([corpus_file], GPT2, byte_level=True, lines=True, workers=1)
    assert list(got.counts.items()) == list(expected.counts.items()) and got.documents == expected.documents


def test_reading_is_bounded_by_the_block_size(tmp_path, monkeypatch) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"some words here and there\n" * 40_000)  # ~1 MB
    reads: list[int] = []

    class Recording(io.FileIO):
        def read(self, size=-1):
            data = super().read(size)
            reads.append(len(data))
            return data

    monkeypatch.setattr("bpe_engine.corpus.counting.open_binary", lambda p: Recording(p, "rb"))
    count_files([path], GPT2, byte_level=True, workers=1, block_bytes=10_000)
    assert reads and max(reads) < 80_000 < path.stat().st_size


@pytest.mark.parametrize("lines", [False, True])
def test_bad_utf8_in_a_later_block_names_file_line_and_offset(tmp_path, lines) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(b"good line\n" * 3000 + b"bad \xff\n" + b"tail\n")
    with pytest.raises(CorpusError, match=r"bad\.txt, line 3001, byte offset 30004: not valid UTF-8 \(byte 0xff\)"):
        count_files([path], GPT2, byte_level=False, lines=lines, workers=1, block_bytes=1000)


def test_unreadable_files_are_named_before_counting(tmp_path) -> None:
    (tmp_path / "ok.txt").write_text("fine")
    with pytest.raises(CorpusError, match="cannot read corpus file .*nope.txt"):
        count_files([tmp_path / "ok.txt", tmp_path / "nope.txt"], GPT2, byte_level=True)
    with pytest.raises(CorpusError, match="cannot read corpus file"):
        count_files([tmp_path], GPT2, byte_level=True)


def _die_in_child(unit: int, job: None) -> int:
    if unit == 3 and os.getpid() != PARENT:
        os._exit(1)  # a worker killed (out of memory, kill -9)
    return unit * 10


PARENT = os.getpid()


def test_a_dead_worker_costs_time_not_results() -> None:
    results = parallel.ordered_map(_die_in_child, range(8), None, 2)
    assert results is not None
    assert list(results) == [u * 10 for u in range(8)]


ASCII = [chr(c) for c in range(128)] + ["'s", "'LL", "'ve", "  ", "\r\n", "abc", "ABC", "123456"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ASCII), max_size=60).map("".join))
def test_the_ascii_twin_of_each_built_in_pattern_gives_the_same_pieces(text: str) -> None:
    for pre in CUTTABLE:
        twin = ascii_twin(pre.pattern)
        assert twin is not None, pre.name
        assert re.findall(twin, text, re.ASCII) == pre.split(text), pre.name
        assert splitter(pre)(text) == pre.split(text)
        assert splitter(pre)(text + "한 x") == pre.split(text + "한 x")  # not ASCII: the real pattern
