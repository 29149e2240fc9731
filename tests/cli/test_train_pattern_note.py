"""``train`` says when its pre-tokenizer cuts a script of the corpus apart (Hindi under gpt2) and
names the fix; with o200k's pattern, or on English, it says nothing of the kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.metrics.languages import find


def test_hindi_under_gpt2_gets_a_note_and_o200k_none(tmp_path: Path, alice_text: str, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "hi.txt"
    corpus.write_text("\n".join(text for _, text in find("hin")[0].parts), encoding="utf-8")
    assert main(["train", str(corpus), "--vocab-size", "400", "-o", str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out
    assert "note: the gpt2 pre-tokenizer cuts vowel signs and other marks off their letters in Devanagari" in out
    assert main(["train", str(corpus), "--vocab-size", "400", "--pre-tokenizer", "o200k", "-o", str(tmp_path / "b")]) == 0
    assert "cuts vowel signs" not in capsys.readouterr().out
    english = tmp_path / "en.txt"
    english.write_text(alice_text[:20_000], encoding="utf-8")
    assert main(["train", str(english), "--vocab-size", "400", "-o", str(tmp_path / "c")]) == 0
    assert "cuts vowel signs" not in capsys.readouterr().out


def test_the_multilingual_preset_fills_what_is_not_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from bpe_engine.sentencepiece.model_proto import read_model_file

    corpus = tmp_path / "hi.txt"
    corpus.write_text("\n".join(text for _, text in find("hin")[0].parts), encoding="utf-8")
    assert main(["train", str(corpus), "--vocab-size", "400", "--preset", "multilingual", "-o", str(tmp_path / "p")]) == 0
    assert json.loads((tmp_path / "p" / "bpe-explorer.json").read_text(encoding="utf-8"))["pre_tokenizer"]["name"] == "o200k"
    assert "cuts vowel signs" not in capsys.readouterr().out
    assert main(["train", str(corpus), "--model", "unigram", "--vocab-size", "700", "--preset", "multilingual", "-o", str(tmp_path / "u")]) == 0
    assert read_model_file(tmp_path / "u" / "u.model").byte_fallback
    given = ["train", str(corpus), "--vocab-size", "400", "--preset", "multilingual", "--pre-tokenizer", "cl100k", "-o", str(tmp_path / "g")]
    assert main(given) == 0  # what is given wins
    assert json.loads((tmp_path / "g" / "bpe-explorer.json").read_text(encoding="utf-8"))["pre_tokenizer"]["name"] == "cl100k"
