"""``metrics`` does not rank a tokenizer fair for turning a script into [UNK]: unknown and
byte-fallback shares beside every count, a flag on premiums built on them, warnings for whitespace
words that mean nothing and for "parallel" files that are not, and one rule for added tokens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.metrics.languages import find
from bpe_engine.registry import load_tokenizer


@pytest.fixture(scope="module")
def udhr_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("udhr")
    out = {}
    for code in ("eng", "amh", "tha", "kor"):
        out[code] = root / f"{code}.txt"
        out[code].write_text("\n".join(t for _, t in find(code)[0].parts) + "\n", encoding="utf-8")
    return out


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[list[dict], str]:  # type: ignore[type-arg]
    assert main(["metrics", *args, "--json"]) == 0
    captured = capsys.readouterr()
    return [json.loads(line) for line in captured.out.splitlines()], captured.err


def test_shares_beside_every_count_and_the_flag(udhr_files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(udhr_files[c]) for c in ("eng", "amh", "tha")]
    rows, _ = run_json(capsys, "-t", "bert-base-uncased,o200k_base,mistral-v1", *files, "--parallel", *files)
    bert, o200k, mistral = rows
    amharic = bert["files"][1]
    ids = load_tokenizer("bert-base-uncased").encode(udhr_files["amh"].read_text(encoding="utf-8"), add_special_tokens=False)
    assert amharic["unknown"] == sum(1 for i in ids if i == 100) and amharic["unknown_share"] > 0.9 and amharic["unreliable"]
    assert all(key in f for f in bert["files"] + [bert["totals"]] for key in ("unknown_share", "byte_fallback_share", "unreliable"))
    premiums = {p["file"]: p for p in bert["parallel"]}
    assert premiums[files[1]]["unreliable"] and premiums[files[2]]["unreliable"] and not premiums[files[0]]["unreliable"]
    assert premiums[files[2]]["premium"] < 0.5  # the flattering count the flag is there for
    assert not any(p["unreliable"] for p in o200k["parallel"]) and o200k["files"][1]["unknown"] == 0
    amh_mistral = mistral["files"][1]
    assert amh_mistral["byte_fallback_share"] > 0.5 and amh_mistral["unknown"] == 0 and amh_mistral["unreliable"]


def test_the_table_shows_the_shares_and_flags(udhr_files: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    files = [str(udhr_files[c]) for c in ("eng", "amh")]
    assert main(["metrics", "-t", "bert-base-uncased,o200k_base", "--parallel", *files]) == 0
    out = capsys.readouterr().out
    amh = next(line for line in out.splitlines() if line.startswith(files[1]))
    assert "unk 100%" in amh and amh.count("!") == 1 and "flatters" in out
    assert "tokens a tokenizer adds ([CLS], [SEP], <s>) not counted" in out


def test_whitespace_words_that_mean_nothing_are_warned(udhr_files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    rows, err = run_json(capsys, "-t", "o200k_base", str(udhr_files["tha"]), str(udhr_files["kor"]), str(udhr_files["amh"]))
    warned = rows[0]["warnings"]
    assert any(str(udhr_files["tha"]) in w and "does not space its words" in w for w in warned)
    assert any(str(udhr_files["amh"]) in w for w in warned) and not any(str(udhr_files["kor"]) in w for w in warned)
    assert rows[0]["files"][0]["words_unclear"] and not rows[0]["files"][1]["words_unclear"]
    assert "does not space its words" in err


def test_parallel_files_that_do_not_look_parallel_are_warned(udhr_files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    short = tmp_path / "short.txt"
    short.write_text("All human beings are born free and equal in dignity and rights.\n", encoding="utf-8")
    rows, err = run_json(capsys, "-t", "gpt2", "--parallel", str(udhr_files["eng"]), str(short))
    assert any("do not look parallel" in w and "short.txt" in w for w in rows[0]["warnings"]) and "do not look parallel" in err
    rows, err = run_json(capsys, "-t", "gpt2", "--parallel", str(udhr_files["eng"]), str(udhr_files["kor"]))
    assert "warnings" not in rows[0] and "parallel" not in err


def test_compare_and_metrics_count_the_same_tokens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "The constitution protects the freedom of speech."
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    rows, _ = run_json(capsys, "-t", "bert-base-uncased", str(path))
    assert main(["compare", "-t", "bert-base-uncased", "--json", text]) == 0
    compared = json.loads(capsys.readouterr().out)
    stats = compared["rows"][0]["stats"]
    assert stats["tokens"] == rows[0]["files"][0]["tokens"] == 8 and stats["added_tokens"] == 2
    assert main(["compare", "-t", "bert-base-uncased", "--no-align", text]) == 0
    out = capsys.readouterr().out
    assert "8 +2" in out and "tokens a tokenizer adds ([CLS], [SEP], <s>) not counted" in out
