"""The tokens a tokenizer adds of its own, through the CLI: added by default (Hugging Face's
``add_special_tokens=True``), left out with ``--no-add-special-tokens``, in every output mode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_cli.main import main
from tests.oracles import require

BERT_VOCAB = Path(__file__).parents[2] / "bpe_engine" / "data" / "bert-base-uncased-vocab.txt"


def _out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_bert_adds_cls_and_sep_unless_told_not_to_as_hf_does(capsys: pytest.CaptureFixture[str]) -> None:
    tokenizers = require("tokenizers")
    hf = tokenizers.BertWordPieceTokenizer(str(BERT_VOCAB), lowercase=True)
    for flag, add in (((), True), (("--no-add-special-tokens",), False)):
        printed = _out(capsys, "encode", "-t", "bert-base-uncased", "--ids", *flag, "Hello, world!")
        assert [int(i) for i in printed.split()] == hf.encode("Hello, world!", add_special_tokens=add).ids


@pytest.mark.parametrize("mode", ["--json", "--jsonl"])
def test_the_json_modes_follow_the_same_rule(capsys: pytest.CaptureFixture[str], mode: str) -> None:
    with_specials = json.loads(_out(capsys, "encode", "-t", "bert-base-uncased", mode, "hello world").splitlines()[0])
    without = json.loads(
        _out(capsys, "encode", "-t", "bert-base-uncased", mode, "--no-add-special-tokens", "hello world").splitlines()[0]
    )
    assert with_specials["ids"] == [101, 7592, 2088, 102]
    assert without["ids"] == [7592, 2088]


def test_inspect_and_count_take_the_option_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert _out(capsys, "encode", "-t", "bert-base-uncased", "--count", "hello world").strip() == "4"
    assert _out(capsys, "encode", "-t", "bert-base-uncased", "--count", "--no-add-special-tokens", "hello world").strip() == "2"
    shown = _out(capsys, "inspect", "-t", "bert-base-uncased", "--no-add-special-tokens", "hello")
    assert "[CLS]" not in shown and "1 token" in shown


def test_a_tokenizer_that_adds_nothing_is_unchanged_by_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    plain = _out(capsys, "encode", "-t", "gpt2", "--ids", "hello world")
    assert _out(capsys, "encode", "-t", "gpt2", "--ids", "--no-add-special-tokens", "hello world") == plain == "31373 995\n"
