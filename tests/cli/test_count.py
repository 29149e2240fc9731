"""``count`` and ``train --from-counts``: counting anywhere gives exactly the merges of training on
the files; count files add up; clashing settings and oversized tables are said in one line."""

from __future__ import annotations

import json
import re

import pytest

from bpe_cli.main import main
from bpe_engine.corpus.counts_file import read_counts, read_header


@pytest.fixture
def corpus(tmp_path, alice_text, korean_text):
    a = tmp_path / "alice.txt"
    a.write_text(alice_text[:50_000] + "<|end|>" + alice_text[50_000:80_000], encoding="utf-8")
    k = tmp_path / "korean.txt"
    k.write_text(korean_text[:20_000], encoding="utf-8")
    return [str(a), str(k)]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def files_of(directory) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.name != "bpe-explorer.json"}


@pytest.mark.parametrize(
    "options",
    [
        ["--lines", "--special", "<|end|>"],
        ["--char-level", "--tie-break", "first-seen"],  # first-seen depends on the order of words
        ["--pre-tokenizer", "cl100k", "--tie-break", "lexicographic", "--min-word-count", "2"],
    ],
)
def test_train_from_counts_gives_exactly_the_merges_of_training_on_the_files(corpus, tmp_path, capsys, options) -> None:
    counting = [o for o in options if o not in ("--tie-break", "first-seen", "lexicographic")]
    training = [o for o in options if o in ("--tie-break", "first-seen", "lexicographic")]
    assert run(capsys, "train", *corpus, "--vocab-size", "400", "--name", "t", "-o", str(tmp_path / "direct"), *options)[0] == 0
    halves = []
    for i, path in enumerate(corpus):  # counted apart, added up by train
        halves.append(str(tmp_path / f"part{i}.tsv"))
        assert run(capsys, "count", path, "-o", halves[-1], *[o for o in counting if o not in ("--min-word-count", "2")])[0] == 0
    code, out, _ = run(capsys, "train", "--from-counts", *halves, "--vocab-size", "400", "--name", "t", "-o", str(tmp_path / "counted"),
                       *training, *(["--min-word-count", "2"] if "--min-word-count" in options else []))
    assert code == 0, out
    assert files_of(tmp_path / "counted") == files_of(tmp_path / "direct")


def test_count_merges_counts_files_and_corpora_alike(corpus, tmp_path, capsys) -> None:
    both = tmp_path / "both.tsv"
    assert run(capsys, "count", *corpus, "-o", str(both), "--lines")[0] == 0
    one = tmp_path / "one.tsv"
    assert run(capsys, "count", corpus[0], "-o", str(one), "--lines")[0] == 0
    merged = tmp_path / "merged.tsv"
    code, out, _ = run(capsys, "count", str(one), corpus[1], "-o", str(merged), "--lines")
    assert code == 0 and "1 corpus file and 1 counts file" in out and f"wrote {merged}" in out
    assert read_counts([merged])[0].counts == read_counts([both])[0].counts
    assert list(read_counts([merged])[0].counts) == list(read_counts([both])[0].counts)
    header = read_header(both)
    assert header is not None and header.lines and header.level == "byte" and header.pre_tokenizer == "gpt2"


def test_count_to_standard_output_without_header(corpus, tmp_path, capsys) -> None:
    code, out, err = run(capsys, "count", corpus[0], "-o", "-", "--no-header", "--char-level")
    assert code == 0 and "distinct words" in err
    first = out.splitlines()[0]
    assert not first.startswith("#") and first.split("\t")[1].isdigit()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["train", "--from-counts", "{tsv}", "--char-level", "--vocab-size", "300", "-o", "{tmp}/x"],
         r"was counted with other settings: --char-level \(counted byte-level\)"),
        (["train", "--from-counts", "{tsv}", "--pre-tokenizer", "o200k", "--vocab-size", "300", "-o", "{tmp}/x"],
         r"--pre-tokenizer o200k \(counted with gpt2\)"),
        (["count", "{tsv}", "{corpus}", "--special", "<s>", "-o", "{tmp}/y.tsv"], r"--special <s> \(counted with none\)"),
        (["count", "{corpus}", "--scheduler", "tcp://127.0.0.1:1", "-o", "{tmp}/y.tsv"], "--scheduler goes with --engine dask"),
        (["train", "{corpus}", "--memory-limit", "1M", "--vocab-size", "300", "-o", "{tmp}/x"],
         r"the word table will not fit in memory: .* distinct words .* ways out: --min-word-count K"),
        (["train", "--from-counts", "{corpus}", "--vocab-size", "300", "-o", "{tmp}/x"], r"alice\.txt, line \d+: expected piece<TAB>count .*counts files come from bpe-explorer count"),
    ],
)
def test_user_errors_are_one_line(corpus, tmp_path, capsys, argv, message) -> None:
    tsv = tmp_path / "c.tsv"
    assert run(capsys, "count", corpus[0], "-o", str(tsv))[0] == 0
    argv = [a.format(tsv=tsv, tmp=tmp_path, corpus=corpus[0]) for a in argv]
    code, _, err = run(capsys, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert re.search(message, err), err


def test_first_seen_order_survives_the_counts_file(tmp_path, capsys) -> None:
    """Every pair ties (each word once): only the order of words decides, and it must be kept."""
    path = tmp_path / "ties.txt"
    path.write_text(" ".join(f"{a}{b}" for a, b in zip("zyxwvutsrq", "abcdefghij")), encoding="utf-8")
    options = ["--char-level", "--tie-break", "first-seen", "--vocab-size", "25", "--name", "t"]
    assert run(capsys, "train", str(path), "-o", str(tmp_path / "direct"), *options)[0] == 0
    assert run(capsys, "count", str(path), "-o", str(tmp_path / "c.tsv"), "--char-level")[0] == 0
    assert run(capsys, "train", "--from-counts", str(tmp_path / "c.tsv"), "-o", str(tmp_path / "counted"), *options)[0] == 0
    merges = json.loads((tmp_path / "direct" / "tokenizer.json").read_text())["model"]["merges"]
    assert merges[0] in (["z", "a"], "z a")  # the first word's pair
    assert files_of(tmp_path / "counted") == files_of(tmp_path / "direct")
