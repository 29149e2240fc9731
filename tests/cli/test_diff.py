"""``diff A B``, the rule lab: where two tokenizers' merges part and which tokens each has alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_cli.main import main
from tests.cli.test_merges_why import TEXTBOOK


def test_two_tie_break_rules_part_at_merge_two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXTBOOK, encoding="utf-8")
    for rule in ("hf", "first-seen"):
        assert main(["train", str(corpus), "--vocab-size", "40", "--end-of-word", "separate", "--tie-break", rule, "-o", str(tmp_path / rule)]) == 0
    capsys.readouterr()
    assert main(["diff", str(tmp_path / "hf"), str(tmp_path / "first-seen"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["merges"]["first_difference"] == 2 and result["merges"]["ranks_differ"] > 0
    assert result["only_a"]["count"] == result["only_b"]["count"] > 0
    assert main(["diff", str(tmp_path / "hf"), str(tmp_path / "first-seen")]) == 0
    out = capsys.readouterr().out
    assert "first differ at merge 2" in out and "t + </w> in 'hf'" in out and "es + t in 'first-seen'" in out


def test_any_two_tokenizers_compare_by_their_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "gpt2", "p50k_base", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["merges"]["first_difference"] is None and result["only_a"]["count"] == 0
    assert result["only_b"]["count"] == 24 and result["only_b"]["first"][0] == "2020"  # runs of 2..25 spaces


def test_the_rule_lab_parts_greatest_from_lexicographic_at_the_first_tie(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # "▁low" x4: (▁, l), (l, o), (o, w) tie; the smallest bytes take (l, o), max() takes (▁, l) (▁ is e2 96 81)
    corpus = tmp_path / "c.txt"
    corpus.write_text("low low low lower", encoding="utf-8")
    for rule in ("lexicographic", "greatest"):
        assert main(["train", str(corpus), "--vocab-size", "12", "--char-level", "--pre-tokenizer", "whitespace",
                     "--tie-break", rule, "-o", str(tmp_path / rule)]) == 0
    capsys.readouterr()
    assert main(["diff", str(tmp_path / "lexicographic"), str(tmp_path / "greatest")]) == 0
    out = capsys.readouterr().out
    assert "first differ at merge 1" in out and "l + o in 'lexicographic'" in out and "▁ + l in 'greatest'" in out
