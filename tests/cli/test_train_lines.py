"""``train --lines empty.txt other.txt`` reads every later file as lines.

An empty first file used to turn every later file into one document (a loop variable shadowed
``lines`` in ``read_documents``). Checked through the CLI for both models, with no pre-tokenizer so
that lines and documents train different merges. WordPiece without a pre-tokenizer trains tokens
holding spaces and newlines, which vocab.txt cannot hold: the save used to fail after the whole
training ("save as tokenizer.json", which no option does); now tokenizer.json holds the model
and a note says why vocab.txt is missing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tokenizers

from bpe_cli.main import main
from bpe_engine.registry import load_tokenizer

MODELS = {"bpe": ["--char-level", "--vocab-size", "300"], "wordpiece": ["--vocab-size", "60"]}


def trained(tmp_path: Path, capsys: pytest.CaptureFixture[str], model: str, *files: str) -> tuple[dict, str]:
    out = tmp_path / f"out{len(list(tmp_path.iterdir()))}"
    args = ["train", "--model", model, *MODELS[model], "--pre-tokenizer", "none", "-o", str(out)]
    assert main([*args, *(str(tmp_path / f) if f != "--lines" else f for f in files)]) == 0
    printed = capsys.readouterr().out
    return json.loads((out / "tokenizer.json").read_text(encoding="utf-8"))["model"], printed


@pytest.mark.parametrize("model", sorted(MODELS))
def test_lines_after_an_empty_first_file_are_still_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str], model: str) -> None:
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "other.txt").write_text("ab ab ab\ncd cd cd\nab cd\n", encoding="utf-8")
    after_empty, printed = trained(tmp_path, capsys, model, "--lines", "empty.txt", "other.txt")
    alone, _ = trained(tmp_path, capsys, model, "--lines", "other.txt")
    documents, _ = trained(tmp_path, capsys, model, "empty.txt", "other.txt")
    assert after_empty == alone
    assert after_empty != documents  # the test can tell lines from documents
    if model == "wordpiece":
        assert "note: vocab.txt not written: token" in printed and "tokenizer.json holds every token" in printed


def test_a_wordpiece_model_with_spaces_in_tokens_saves_and_loads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "c.txt").write_text("ab cd ab cd ab\n" * 5, encoding="utf-8")
    out = tmp_path / "wp"
    assert main(["train", "--model", "wordpiece", "--pre-tokenizer", "none", "--vocab-size", "60", str(tmp_path / "c.txt"), "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "bpe-explorer.json", "special_tokens_map.json", "tokenizer.json", "tokenizer_config.json", "training.jsonl"
    ]
    tokenizer = load_tokenizer(out)
    assert any(" " in token for token in tokenizer.vocab)
    oracle = tokenizers.Tokenizer.from_file(str(out / "tokenizer.json"))
    for text in ("ab cd", "ab cd ab\nx"):
        assert tokenizer.encode(text) == oracle.encode(text).ids
