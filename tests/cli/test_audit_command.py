"""``bpe-explorer audit``: the categories as a table and as JSON, the explanations, and --corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_cli.main import main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:  # type: ignore[type-arg]
    assert main(["audit", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_counts_have_exactly_the_categories(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "gpt2")
    assert list(data["counts"]) == ["ok", "undecodable", "unreachable_single", "unreachable_multi", "special", "single_byte", "utf8_fragment"]
    assert (data["counts"]["single_byte"], data["counts"]["special"], data["counts"]["utf8_fragment"]) == (256, 1, 216)
    assert data["vocab_size"] == 50257 and data["ids"]["special"] == [50256]
    assert len(data["ids"]["utf8_fragment"]) == 216 and data["unreachable"] == []


def test_o200k_unreachable_tokens_explained(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = run_json(capsys, "o200k_base")
    assert data["counts"]["unreachable_multi"] == 12
    by_id = {u["id"]: u for u in data["unreachable"]}
    newline = by_id[3914]
    assert newline["text"] == "\n//" and newline["bytes"] == "0a2f2f" and newline["encodes_to"] == [198, 393]
    assert newline["stage"] == "pre-tokenizer" and newline["pieces"] == ["\n", "//"] and newline["context"] is None
    assert by_id[193819]["context"] == "亚洲AVs"
    monkeypatch.setenv("COLUMNS", "240")
    assert main(["audit", "o200k_base"]) == 0
    out = capsys.readouterr().out
    assert "never produced from their own text: 12" in out and "unreachable_multi" in out and "the pre-tokenizer cuts its text into" in out


def test_corpus_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "fortune.txt"
    corpus.write_text("".join(f"line {n}: the fortune of the fortunate\n" for n in range(2000)), encoding="utf-8")
    data = run_json(capsys, "gpt2", "--corpus", str(corpus), "--explain", "0")
    use = data["corpus"]
    assert use["files"] == [str(corpus)] and use["characters"] == corpus.stat().st_size
    assert use["vocabulary"] == 50256 and use["used"] + len(use["never_used"]) == 50256
    assert 419 in use["only_inside"] and len(use["growth"]) > 10 and use["growth"][-1]["tokens"] == use["tokens"]
    assert main(["audit", "gpt2", "--corpus", str(corpus)]) == 0
    out = capsys.readouterr().out
    assert "ordinary tokens used:" in out and "only seen inside longer tokens:" in out and "vocabulary used as the corpus grows" in out


def test_a_missing_corpus_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "gpt2", "--corpus", str(tmp_path / "nope.txt")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bpe-explorer: error: cannot read") and err.count("\n") == 1
