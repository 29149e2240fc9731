"""`train --model wordpiece` and `encode --tokenizer bert-base-uncased` through the CLI."""

from __future__ import annotations

import json

import pytest

from bpe_cli.main import main
from bpe_engine.registry import load_tokenizer


def test_train_wordpiece_writes_vocab_and_reloads(alice_text, tmp_path, capsys):
    corpus = tmp_path / "alice.txt"
    corpus.write_text(alice_text[:40_000], encoding="utf-8")
    out = tmp_path / "wp"
    assert main(["train", str(corpus), "--model", "wordpiece", "--vocab-size", "600", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "vocab.txt" in printed
    tok = load_tokenizer(str(out))  # its tokenizer.json, read as Hugging Face reads it
    assert tok.vocab_size == 600
    assert [tok.token_str(i) for i in tok.encode("[CLS]", special_mode="special", add_special_tokens=False)] == ["[CLS]"]
    # Every word of the training text encodes without [UNK]: the alphabet covers it.
    ids = tok.encode("alice was beginning")
    assert [tok.token_str(ids[0]), tok.token_str(ids[-1])] == ["[CLS]", "[SEP]"]  # BertProcessing, HF's default
    assert tok.vocab["[UNK]"] not in ids
    assert tok.decode(ids) == "alice was beginning"


def test_wordpiece_rejects_bpe_only_options(tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("low lower lowest", encoding="utf-8")
    code = main(["train", str(corpus), "--model", "wordpiece", "--vocab-size", "50", "--tie-break", "hf", "-o", str(tmp_path / "o")])
    assert code == 2
    assert "--tie-break" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "ids"),
    [("unaffable", [14477, 20961, 3468]), ("hello", [7592]), ("한", [1469, 30006, 30021])],
)
def test_encode_bert_base_uncased_json(text, ids, capsys):
    assert main(["encode", "--tokenizer", "bert-base-uncased", "--json", text]) == 0
    assert json.loads(capsys.readouterr().out)["ids"] == ids
