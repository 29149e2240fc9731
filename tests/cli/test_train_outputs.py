"""What character-level ``train`` writes, and how its merges table shows spaces.

The README said every BPE save holds vocab.json + merges.txt; a character-level model over raw
spaces cannot (merges.txt is space-separated), so train now says which merge kept them out. Space
tokens in the merges table show as ␣, never as blank cells.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_cli.main import main

CORPUS = "the cat sat on the mat the hat "


def train(tmp_path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> tuple[Path, str]:
    corpus = tmp_path / "c.txt"
    corpus.write_text(CORPUS * 10, encoding="utf-8")
    out = tmp_path / "tok"
    assert main(["train", str(corpus), "--char-level", "--vocab-size", "30", "-o", str(out), *options]) == 0
    return out, capsys.readouterr().out


def test_char_level_over_marked_spaces_writes_vocab_json_and_merges_txt(tmp_path, capsys) -> None:
    out, printed = train(tmp_path, capsys, "--pre-tokenizer", "whitespace")
    assert {"vocab.json", "merges.txt", "tokenizer.json"} <= {p.name for p in out.iterdir()}
    assert f"wrote {out / 'merges.txt'}" in printed


def test_char_level_over_raw_spaces_says_which_merge_keeps_merges_txt_out(tmp_path, capsys) -> None:
    out, printed = train(tmp_path, capsys)  # gpt2 pieces keep their leading space: ' the'
    assert not (out / "merges.txt").exists()
    assert "note: vocab.json + merges.txt not written" in printed and "merge (" in printed and "has one" in printed


def test_space_tokens_in_the_merges_table_are_never_blank(tmp_path, capsys) -> None:
    out, _ = train(tmp_path, capsys)
    assert main(["merges", str(out)]) == 0
    table = capsys.readouterr().out
    rows = [line for line in table.splitlines() if "│" in line][1:]
    assert any("␣" in row for row in rows)
    for row in rows:
        cells = [cell.strip() for cell in row.split("│")]
        assert all(cells), f"blank cell in {row!r}"
    assert main(["merges", "--json", str(out)]) == 0  # --json keeps the model's exact spelling
    lefts = [json.loads(line)["left"] for line in capsys.readouterr().out.splitlines()]
    assert " " in lefts
