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
    [("unaffable", [101, 14477, 20961, 3468, 102]), ("hello", [101, 7592, 102]), ("한", [101, 1469, 30006, 30021, 102])],
)
def test_encode_bert_base_uncased_json(text, ids, capsys):
    assert main(["encode", "--tokenizer", "bert-base-uncased", "--json", text]) == 0
    assert json.loads(capsys.readouterr().out)["ids"] == ids


@pytest.mark.parametrize(("pre", "lines"), [(None, False), (None, True), ("whitespace", True), ("gpt2", False)])
def test_wordpiece_streams_its_files_and_trains_what_the_whole_text_trains(alice_text, korean_text, tmp_path, pre, lines):
    """The CLI reads WordPiece corpora block by block (bounded memory); the words, and so the
    vocabulary, are those of the whole text read at once (per line with --lines)."""
    from bpe_engine.corpus import stream_texts
    from bpe_engine.corpus.blocks import CutRule
    from bpe_engine.pretokenizers import get_pretokenizer
    from bpe_engine.training.wordpiece import WordPieceTrainerConfig, WordPieceTraining

    text = alice_text[:30_000] + "\r\n" + korean_text[:6_000] + "e\u0301\n\u0301x 漢字"
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(text.encode("utf-8"))
    tokenizer = get_pretokenizer(pre) if pre else None
    config = WordPieceTrainerConfig(vocab_size=900, pre_tokenizer=tokenizer)
    rule = CutRule(lines=True, spaces=False) if tokenizer is None else CutRule.for_job(tokenizer, (), lines=lines)
    blocks = list(stream_texts([str(corpus)], rule, block_bytes=2_000))
    assert "".join(blocks) == text and len(blocks) > 10
    whole = [line for line in text.splitlines(keepends=True)] if lines and pre else [text]
    expected = WordPieceTraining(whole, config)
    streamed = WordPieceTraining(stream_texts([str(corpus)], rule, lines=lines and pre is not None, block_bytes=2_000), config)
    assert list(streamed.steps()) == list(expected.steps())
    assert streamed.vocab == expected.vocab


def test_wordpiece_names_a_bad_byte_of_a_streamed_file(tmp_path, capsys):
    corpus = tmp_path / "bad.txt"
    corpus.write_bytes(b"good line\nsecond \xff line\n")
    assert main(["train", str(corpus), "--model", "wordpiece", "--vocab-size", "60", "-o", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and err.count("\n") == 1
