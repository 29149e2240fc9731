"""``train --model picky|scaffold|superbpe``: the variants through the CLI, saved, loaded again, and
their tokenizer.json read by Hugging Face with our ids."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.registry import load_tokenizer
from tests.oracles import require

tokenizers = require("tokenizers")

TEXT = "Alice was beginning to get very tired of sitting by her sister on the bank"


@pytest.fixture
def corpus(tmp_path: Path, alice_text: str) -> Path:
    path = tmp_path / "alice.txt"
    path.write_text(alice_text[:60_000], encoding="utf-8")
    return path


def test_picky_trains_saves_and_loads_with_its_splits(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "picky"
    assert main(["train", str(corpus), "--model", "picky", "--picky-tau", "0.9", "--vocab-size", "600", "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "600 tokens" in said and "splits" in said
    loaded = load_tokenizer(str(out))
    hf = tokenizers.Tokenizer.from_file(str(out / "tokenizer.json"))
    assert hf.get_vocab() == loaded.vocab and hf.get_vocab_size() == 600
    assert loaded.special_tokens == {"[PAD]": 0, "[UNK]": 1, "[BOS]": 2, "[EOS]": 3}
    assert loaded.decode(loaded.encode(TEXT)) == TEXT


def test_picky_refuses_a_tie_rule_a_split_would_move(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", str(corpus), "--model", "picky", "--tie-break", "first-seen", "--vocab-size", "600", "-o", str(tmp_path / "x")]) == 2
    assert "--tie-break" in capsys.readouterr().err


def test_scaffold_leaves_its_scaffolds_out_and_encodes_without_them(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "scaffold"
    assert main(["train", str(corpus), "--model", "scaffold", "--scaffold-rule", "paper", "--vocab-size", "900", "-o", str(out)]) == 0
    assert "scaffolds left out" in capsys.readouterr().out
    loaded = load_tokenizer(str(out))
    assert loaded.vocab_size == 900
    ids = loaded.encode(TEXT)
    assert loaded.decode(ids) == TEXT
    hf = tokenizers.Tokenizer.from_file(str(out / "tokenizer.json"))
    assert hf.get_vocab() == loaded.vocab


def test_superbpe_makes_superwords_and_hf_encodes_them_alike(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "super"
    assert main(["train", str(corpus), "--model", "superbpe", "--transition", "500", "--vocab-size", "1000", "-o", str(out)]) == 0
    loaded = load_tokenizer(str(out))
    hf = tokenizers.Tokenizer.from_file(str(out / "tokenizer.json"))
    text = corpus.read_text(encoding="utf-8")[-5_000:]
    assert hf.encode(text).ids == loaded.encode(text)
    assert any("Ġ" in loaded.token_str(i).strip("Ġ") for i in loaded.encode(text))  # a token across a space
