"""``count`` and ``train`` on inputs that are not plain files, and on counts files that lie.

A pipe (``train <(zcat c.gz)``) was planned from its size, 0, and trained an empty model with
exit 0; a counts header with the level ``"nibble"`` trained character-level without a word; one
nested 100,000 deep was a RecursionError traceback; reading counts had no memory guard (3M words
with ``--memory-limit 200M`` used 1.40 GB).
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.corpus.counts_file import HEADER_PREFIX

TEXT = "the cat sat on the mat, 한국어 텍스트는 바이트로 쪼개진다.\n" * 500


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def pipe_of(tmp_path: Path) -> Callable[[bytes], str]:
    """``pipe_of(data)``: the path of a named pipe a thread writes ``data`` into (as ``<(cat f)`` gives)."""
    threads: list[threading.Thread] = []

    def make(data: bytes) -> str:
        path = tmp_path / f"pipe{len(threads)}"
        os.mkfifo(path)
        threads.append(threading.Thread(target=path.write_bytes, args=(data,), daemon=True))
        threads[-1].start()
        return str(path)

    yield make
    for thread in threads:
        thread.join(5)


def test_count_and_train_read_a_pipe_as_they_read_the_file(tmp_path: Path, capsys, pipe_of) -> None:  # noqa: ANN001
    file = tmp_path / "c.txt"
    file.write_text(TEXT, encoding="utf-8")
    assert run(capsys, "count", str(file), "-o", str(tmp_path / "file.tsv"))[0] == 0
    assert run(capsys, "count", pipe_of(file.read_bytes()), "-o", str(tmp_path / "pipe.tsv"))[0] == 0
    rows = (tmp_path / "file.tsv").read_bytes().split(b"\n", 1)[1]
    assert len(rows) > 100 and (tmp_path / "pipe.tsv").read_bytes().split(b"\n", 1)[1] == rows
    options = ["--vocab-size", "300", "--name", "t"]
    assert run(capsys, "train", str(file), "-o", str(tmp_path / "from-file"), *options)[0] == 0
    assert run(capsys, "train", pipe_of(file.read_bytes()), "-o", str(tmp_path / "from-pipe"), *options)[0] == 0
    merges = (tmp_path / "from-file" / "merges.txt").read_text(encoding="utf-8")
    assert merges.count("\n") > 40 and (tmp_path / "from-pipe" / "merges.txt").read_text(encoding="utf-8") == merges
    counts = (tmp_path / "file.tsv").read_bytes()
    assert run(capsys, "train", "--from-counts", pipe_of(counts), "-o", str(tmp_path / "from-counts"), *options)[0] == 0
    assert (tmp_path / "from-counts" / "merges.txt").read_text(encoding="utf-8") == merges


def header_row(**fields: object) -> bytes:
    data = {"version": 1, "pre_tokenizer": "gpt2", "level": "byte", "specials": [], **fields}
    return f"{HEADER_PREFIX}{json.dumps(data)}\t1\n".encode()


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (header_row(level="nibble"), r"c\.tsv, line 1: counts header field 'level' is \"nibble\"; expected 'byte' or 'char'"),
        (header_row(pre_tokenizer="gpt5"), r"field 'pre_tokenizer' is \"gpt5\"; expected one of gpt2"),
        (header_row(specials="<s>"), r"field 'specials' is \"<s>\"; expected a list of strings"),
        (header_row(documents=-3), r"field 'documents' is -3"),
        (header_row(lines="yes"), r"field 'lines' is \"yes\"; expected true, false or null"),
        (f"{HEADER_PREFIX}{'[' * 100_000}{']' * 100_000}\t1\n".encode(), r"c\.tsv, line 1: unreadable counts header \(nested too deeply"),
    ],
)
def test_a_counts_header_that_lies_is_one_line_naming_the_field(tmp_path: Path, capsys, header: bytes, message: str) -> None:  # noqa: ANN001
    path = tmp_path / "c.tsv"
    path.write_bytes(header + b"the\t5\n the\t3\n")
    code, _, err = run(capsys, "train", "--from-counts", str(path), "--vocab-size", "300", "-o", str(tmp_path / "x"))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert re.search(message, err), err
    assert not (tmp_path / "x").exists()


def test_reading_counts_is_watched_against_the_memory_limit(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    path = tmp_path / "many.tsv"
    path.write_bytes(header_row(unique=True) + b"".join(b"w%06d\t1\n" % i for i in range(200_000)))
    code, _, err = run(capsys, "train", "--from-counts", str(path), "--vocab-size", "300", "--memory-limit", "10M", "-o", str(tmp_path / "x"))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert re.search(r"the word table will not fit in memory: [\d,]+ distinct words after .* of .* ways out: --min-word-count K", err), err
    code, _, err = run(capsys, "count", str(path), "--memory-limit", "10M", "-o", str(tmp_path / "y.tsv"))
    assert code == 2 and "will not fit in memory" in err and not (tmp_path / "y.tsv").exists()
