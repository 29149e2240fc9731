"""What ``train`` prints names options the CLI has, never engine fields.

The training notes said "below min_frequency 5", "no pair occurs at least min_frequency=2 times",
"reached vocab_size 60": names of Python config fields, not of ``--min-frequency`` or
``--vocab-size``. The engine's notes (shown by the app too) now speak of the minimum frequency
and the vocabulary size.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bpe_cli.main import main

ENGINE_WORDS = re.compile(r"min_frequency|vocab_size|max_token_length|special_mode|allowed_special|errors=|unk_token")


@pytest.mark.parametrize(
    "args",
    [
        ["--vocab-size", "300", "--min-frequency", "50"],  # BPE stops below the minimum frequency
        ["--model", "wordpiece", "--vocab-size", "300"],  # WordPiece: no pair twice
        ["--model", "wordpiece", "--vocab-size", "19"],  # WordPiece: vocabulary size reached
        ["--model", "wordpiece", "--vocab-size", "5"],  # WordPiece: specials and alphabet fill it
    ],
)
def test_train_notes_name_no_engine_field(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text("ab ab ab cd cd ab cd ef\n" * 3, encoding="utf-8")
    assert main(["train", str(corpus), "-o", str(tmp_path / "out"), *args]) == 0
    captured = capsys.readouterr()
    printed = captured.out + captured.err
    assert "note:" in printed, printed
    assert not ENGINE_WORDS.search(printed), printed
