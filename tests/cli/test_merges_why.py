"""``merges`` says why each merge won: counts and scores from the training log, ties and the rule,
numbered from 1 like the app; a WordPiece directory lists its merges; a model with none says why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_cli.main import main

TEXTBOOK = " ".join(["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3) + "\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_tie_its_pairs_and_the_rule_are_kept_and_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXTBOOK, encoding="utf-8")
    out = tmp_path / "t"
    code, _, _ = run(capsys, "train", str(corpus), "--vocab-size", "40", "--end-of-word", "separate", "-o", str(out))
    assert code == 0
    _, lines, _ = run(capsys, "merges", str(out), "--json", "--limit", "3")
    first, second, third = map(json.loads, lines.splitlines())
    assert (first["merge"], first["rank"], first["left"], first["right"], first["count"]) == (1, 0, "e", "s", 9)
    assert first["why"]["tied"] == [["s", "t"], ["t", "</w>"]] and first["why"]["rule"].startswith("hf:")
    assert third["why"]["tied"] == [] and third["why"]["runner_up"] == ["l", "o"]
    _, table, _ = run(capsys, "merges", str(out), "--limit", "2")
    first_row = next(line for line in table.splitlines() if line.split("│")[0].strip() == "1")
    assert first_row.rstrip().endswith("9=") and "won a tie" in table
    code, _, _ = run(capsys, "train", str(corpus), "--vocab-size", "40", "--end-of-word", "separate", "--tie-break", "first-seen", "-o", str(tmp_path / "f"))
    _, lines, _ = run(capsys, "merges", str(tmp_path / "f"), "--json", "--limit", "3")
    assert [(r["left"], r["right"]) for r in map(json.loads, lines.splitlines())] == [("e", "s"), ("es", "t"), ("est", "</w>")]


def test_a_wordpiece_directory_lists_its_merges_with_their_scores(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text("hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5 + "\n", encoding="utf-8")
    out = tmp_path / "wp"
    assert run(capsys, "train", str(corpus), "--model", "wordpiece", "--merge-by", "score", "--vocab-size", "30", "-o", str(out))[0] == 0
    _, lines, _ = run(capsys, "merges", str(out), "--json", "--limit", "2")
    first = json.loads(lines.splitlines()[0])
    assert (first["left"], first["right"], first["new"]) == ("##g", "##s", "##gs") and first["score"] == pytest.approx(1 / 20)
    assert first["why"]["quantity"] == "score" and first["id"] is not None
    # by count (the default, HF's rule): the most frequent pair, ##u ##g (hug, pug, hugs: 20)
    assert run(capsys, "train", str(corpus), "--model", "wordpiece", "--vocab-size", "30", "-o", str(tmp_path / "c"))[0] == 0
    _, lines, _ = run(capsys, "merges", str(tmp_path / "c"), "--json", "--limit", "2")
    first = json.loads(lines.splitlines()[0])
    assert (first["left"], first["right"], first["new"], first["count"]) == ("##u", "##g", "##ug", 20) and "score" not in first
    assert first["why"]["quantity"] == "count"
    code, _, err = run(capsys, "train", str(corpus), "--merge-by", "score", "--vocab-size", "30", "-o", str(tmp_path / "b"))
    assert code == 2 and "--merge-by applies to --model wordpiece" in err


def test_a_model_without_merges_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "merges", "bert-base-uncased")
    assert code == 2 and "WordPiece" in err and "training.jsonl" in err and len(err.strip().splitlines()) == 1
