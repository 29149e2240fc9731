"""``bpe-explorer metrics`` and ``bpe-explorer overlap``: JSON shape, tables, the premium, errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.catalog.openai import load_reference
from tests.engine.test_metrics import scorer

EN = "The constitution protects the freedom of speech and of the press.\nEveryone is equal before the law.\n"
KO = "헌법은 언론과 출판의 자유를 보장한다.\n모든 국민은 법 앞에 평등하다.\n"


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    en, ko = tmp_path / "en.txt", tmp_path / "ko.txt"
    en.write_text(EN, encoding="utf-8")
    ko.write_text(KO, encoding="utf-8")
    return en, ko


def json_lines(capsys: pytest.CaptureFixture[str]) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_json_per_file_and_totals(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    en, ko = files
    assert main(["metrics", "--tokenizer", "gpt2", str(en), str(ko), "--json"]) == 0
    (data,) = json_lines(capsys)
    assert data["tokenizer"] == "gpt2" and data["alpha"] == 2.5 and data["vocabulary"] == 50256
    assert [f["file"] for f in data["files"]] == [str(en), str(ko)] and data["totals"]["file"] == "total"
    first = data["files"][0]
    for key in ("tokens", "shannon_efficiency", "renyi_efficiency", "tokens_per_word", "continued_word_rate", "vocabulary_use", "zipf_exponent"):
        assert key in first
    ids = load_reference("gpt2").encode(EN)
    assert first["tokens"] == len(ids) and data["totals"]["tokens"] == len(ids) + len(load_reference("gpt2").encode(KO))
    spelled = " ".join(f"t{i}" for i in ids)
    assert math.isclose(first["shannon_efficiency"], scorer(spelled, "shannon_efficiency"), rel_tol=1e-12)
    assert math.isclose(first["renyi_efficiency"], scorer(spelled, "renyi", power=2.5), rel_tol=1e-12)


def test_alpha_parallel_and_several_tokenizers(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    en, ko = files
    assert main(["metrics", "-t", "gpt2,o200k_base", "-t", "cl100k_base", "--alpha", "3", "--parallel", str(en), str(ko), "--json"]) == 0
    rows = json_lines(capsys)
    assert [r["tokenizer"] for r in rows] == ["gpt2", "o200k_base", "cl100k_base"] and all(r["alpha"] == 3.0 for r in rows)
    assert "files" not in rows[0]
    for row in rows:
        first, second = row["parallel"]
        assert first["premium"] == 1.0 and math.isclose(second["premium"], second["tokens"] / first["tokens"])
    assert rows[0]["parallel"][1]["premium"] > rows[1]["parallel"][1]["premium"]  # Korean costs GPT-2 more than o200k


def test_tables(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    en, ko = files
    monkeypatch.setenv("COLUMNS", "220")
    assert main(["metrics", "-t", "gpt2", str(en), str(ko), "--parallel", str(en), str(ko)]) == 0
    out = capsys.readouterr().out
    assert "Shannon" in out and "Rényi" in out and "total" in out and "language premium" in out and "(×1.00)" in out


def test_an_80_column_terminal_gets_every_figure_whole(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten figures of three tokenizers do not fit a row each in 80 columns: the table turns on its
    side (a row per figure) instead of cutting every number to three characters."""
    en, _ = files
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["metrics", "-t", "gpt2,o200k_base,cl100k_base", str(en)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "…" not in "\n".join(lines) and all(len(line) <= 80 for line in lines)
    tokens = next(line for line in lines if line.startswith("tokens"))
    counts = [len(load_reference(name).encode(EN)) for name in ("gpt2", "o200k_base", "cl100k_base")]
    assert tokens.replace("│", " ").split()[1:] == [f"{n:,}" for n in counts]
    assert any(line.startswith("Rényi") for line in lines) and any("en.txt" in line for line in lines)


def test_user_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["metrics", "-t", "gpt2"]) == 2
    assert "give FILE(s) to measure" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stopped:  # argparse's own refusal
        main(["metrics", "-t", "gpt2", "x.txt", "--alpha", "0"])
    assert stopped.value.code == 2 and "the Rényi order must be a positive number" in capsys.readouterr().err


def test_overlap(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    en, ko = files
    assert main(["overlap", "gpt2", "p50k_base", "--json"]) == 0
    (plain,) = json_lines(capsys)
    assert (plain["a_tokens"], plain["b_tokens"], plain["shared"]) == (50256, 50280, 50256) and "corpus" not in plain
    assert main(["overlap", "gpt2", "o200k_base", "--corpus", str(en), str(ko), "--json"]) == 0
    (data,) = json_lines(capsys)
    corpus = data["corpus"]
    assert 0 < corpus["weighted_jaccard"] < 1 and corpus["files"] == [str(en), str(ko)]
    assert corpus["b_only_frequent"] and {"text", "bytes", "count"} <= set(corpus["b_only_frequent"][0])
    monkeypatch.setenv("COLUMNS", "160")
    assert main(["overlap", "gpt2", "o200k_base", "--corpus", str(ko)]) == 0
    out = capsys.readouterr().out
    assert "Jaccard" in out and "weighted Jaccard (corpus)" in out and "o200k_base uses most, gpt2 lacks:" in out
