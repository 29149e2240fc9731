"""The CLI's encode/decode on every built-in tokenizer: ``decode`` of what ``encode --json`` gives is
the model's decode; a wrong id or refused special-token text is one line naming the CLI's option.

(``decode`` once assumed every tokenizer has a ``vocab`` table and crashed on SentencePiece models.)
"""

from __future__ import annotations

import json

import pytest

from bpe_cli.main import main
from bpe_engine.catalog import BUILTIN_NAMES
from bpe_engine.registry import load_tokenizer

TEXT = "Hello, 세계! 👩‍👩‍👧 tokens"


@pytest.fixture(autouse=True)
def _fetched(builtin_model_path):  # type: ignore[no-untyped-def]
    for name in BUILTIN_NAMES:
        builtin_model_path(name)


@pytest.mark.parametrize("name", ["gpt2", "p50k_base", "cl100k_base", "o200k_base", "bert-base-uncased", *BUILTIN_NAMES])
def test_decode_of_encode_and_a_wrong_id(capsys, name: str) -> None:
    assert main(["encode", "-t", name, "--json", TEXT]) == 0
    ids = json.loads(capsys.readouterr().out)["ids"]
    assert main(["decode", "-t", name, *map(str, ids)]) == 0
    out = capsys.readouterr().out
    assert out == load_tokenizer(name).decode(ids) + "\n"  # the engine's decode equals the reference's (other tests)
    assert main(["decode", "-t", name, "3", "9999999"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "9999999" in err and "Traceback" not in err


@pytest.mark.parametrize("name", ["mistral-v1", "gpt2"])
def test_refused_special_text_names_the_option(capsys, name: str) -> None:
    special = "<s>" if name == "mistral-v1" else "<|endoftext|>"
    assert main(["encode", "-t", name, "--special-mode", "refuse", f"a {special} b"]) == 2
    err = capsys.readouterr().err
    assert "--special-mode special" in err and "special_mode=" not in err
