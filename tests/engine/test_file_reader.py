"""The one reader of user files: regular files only unless a stream was asked for, devices behind
symlinks refused, sizes checked before reading -- one line each, nothing read that it refuses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bpe_engine.corpus.counts_file import read_counts
from bpe_engine.errors import CorpusError, TokenizerFileError
from bpe_engine.formats._json import read_file_bytes
from bpe_engine.sentencepiece.model_proto import read_model_file
from bpe_engine.text_files import check_input, corpus_failure, read_input, read_text_file


def _link(tmp_path: Path, name: str, target: str) -> Path:
    link = tmp_path / name
    link.symlink_to(target)
    return link


def test_a_device_behind_a_symlink_is_refused_before_it_is_read(tmp_path: Path) -> None:
    link = _link(tmp_path, "tokenizer.json", "/dev/zero")
    with pytest.raises(TokenizerFileError, match=r"is a character device \(a symlink to /dev/zero\), not a regular file"):
        read_file_bytes(link)
    with pytest.raises(TokenizerFileError, match="character device"):
        read_model_file(_link(tmp_path, "m.model", "/dev/zero"))
    with pytest.raises(CorpusError, match=r"cannot read counts file .*symlink to /dev/zero"):
        read_counts([_link(tmp_path, "counts.tsv", "/dev/zero")])
    with pytest.raises(CorpusError, match="character device"):
        read_text_file(_link(tmp_path, "corpus.txt", "/dev/urandom"))


def test_a_device_named_as_a_corpus_is_a_stream_but_not_behind_a_symlink(tmp_path: Path) -> None:
    fail = corpus_failure("x")
    assert check_input("/dev/zero", fail=fail, streams=True).size is None  # asked for: read in bounded blocks
    with pytest.raises(CorpusError, match="symlink to /dev/zero"):
        check_input(_link(tmp_path, "c.txt", "/dev/zero"), fail=fail, streams=True)
    with pytest.raises(CorpusError, match="not a regular file"):
        check_input("/dev/zero", fail=fail)  # where a file is wanted, a device is refused


def test_a_named_pipe_is_refused_where_a_file_is_wanted_without_opening_it(tmp_path: Path) -> None:
    fifo = tmp_path / "vocab.json"
    os.mkfifo(fifo)  # opening it for reading would block until a writer came: it must not be opened
    with pytest.raises(TokenizerFileError, match="is a named pipe, not a regular file; expected a file"):
        read_file_bytes(fifo)
    with pytest.raises(CorpusError, match="named pipe"):
        read_text_file(fifo)
    assert check_input(fifo, fail=corpus_failure(fifo), streams=True).kind == "a named pipe"


def test_a_directory_and_standard_input_where_a_file_is_wanted(tmp_path: Path) -> None:
    with pytest.raises(TokenizerFileError, match="is a directory, expected a vocab.txt file"):
        read_file_bytes(tmp_path, expected="a vocab.txt file")
    with pytest.raises(TokenizerFileError, match="standard input cannot be read here"):
        read_file_bytes("-")


def test_the_size_is_checked_against_the_memory_left_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b"x" * 10_000)
    fail = corpus_failure(big)
    with pytest.raises(CorpusError, match=r"is 9.8 KiB: read whole it needs ~48.8 KiB, more than the 20.0 KiB"):
        read_input(big, fail=fail, per_byte=5, budget=20 * 1024)
    with pytest.raises(CorpusError, match="more than the 1.0 KiB such a file may be"):
        read_input(big, fail=fail, max_bytes=1024)
    assert read_input(big, fail=fail, per_byte=2, budget=20 * 1024) == b"x" * 10_000


def test_a_symlink_to_a_regular_file_is_read(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_bytes(b"hello\r\n")
    assert read_text_file(_link(tmp_path, "link.txt", str(real))) == "hello\r\n"
