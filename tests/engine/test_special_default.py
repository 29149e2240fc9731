"""Engine and CLI: one special-token default everywhere -- ``text`` -- and the CLI says
when a text holds special-token text, naming ``--special-mode``."""

from __future__ import annotations

import pytest

from bpe_cli.main import main
from bpe_engine.catalog.openai import load_reference
from bpe_engine.compare import compare
from bpe_engine.types import DEFAULT_SPECIAL_MODE
from bpe_engine.wordpiece import bert_base_uncased

TEXT = "hi <|endoftext|> [CLS] there"


def test_the_default_is_text() -> None:
    assert DEFAULT_SPECIAL_MODE == "text"


@pytest.mark.parametrize("make", [lambda: load_reference("gpt2"), bert_base_uncased])
def test_every_tokenizer_encodes_special_text_as_text_by_default(make) -> None:
    tok = make()
    assert tok.encode(TEXT) == tok.encode(TEXT, special_mode="text")
    assert not any(tok.encode_detailed(TEXT, add_special_tokens=False).special)


def test_compare_defaults_to_text() -> None:
    result = compare(TEXT, [load_reference("gpt2")])
    assert result.special_mode == "text" and result.rows[0].error is None


@pytest.mark.parametrize(
    "argv",
    [
        ["encode", "-t", "gpt2", TEXT],
        ["inspect", "-t", "gpt2", TEXT],
        ["compare", "--tokenizers", "gpt2,bert-base-uncased", "--no-align", TEXT],
    ],
)
def test_the_cli_says_so_and_names_the_option(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "note: the text holds '<|endoftext|>'" in err and "--special-mode special" in err
    assert "special_mode" not in err and "allowed_special" not in err
