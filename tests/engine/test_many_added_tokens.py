"""A tokenizer.json with tens of thousands of added tokens loads without building a pattern out of
them (one automaton: no regex alternation whose compiling grew with the tokens -- a million took
180 s) and encodes id for id as Hugging Face ``tokenizers`` does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import regex

from bpe_engine.registry import load_tokenizer

tokenizers = pytest.importorskip("tokenizers")

N = 20_000
TEXTS = [
    "hello <t5> world <t999> again",
    "<t1><t12><t123> x<t19999>y <t20000>",
    "  <t3>  <t6> spaced <t7>word",
    "<t4>" * 50,
]


@pytest.fixture(scope="module")
def many_added(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    root = tmp_path_factory.mktemp("added")
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    corpus = Path(__file__).resolve().parents[2] / "bpe_engine" / "data" / "sample_corpus.txt"
    tok.train([str(corpus)], trainers.BpeTrainer(vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
    data = json.loads(tok.to_str())
    first = len(data["model"]["vocab"])
    data["added_tokens"] = [
        {"id": first + i, "content": f"<t{i}>", "single_word": i % 7 == 0, "lstrip": i % 5 == 3, "rstrip": i % 5 == 1,
         "normalized": i % 2 == 1, "special": i % 3 == 0}
        for i in range(N)
    ]
    path = root / "tokenizer.json"
    path.write_text(json.dumps(data))
    return path


def test_loading_builds_no_pattern_of_the_added_tokens(many_added: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compile_pattern = regex.compile

    def bounded(pattern, *args, **kwargs):  # type: ignore[no-untyped-def]
        assert len(pattern) < 10_000, "a pattern built from the added tokens"
        return compile_pattern(pattern, *args, **kwargs)

    monkeypatch.setattr(regex, "compile", bounded)
    tokenizer = load_tokenizer(str(many_added))
    for text in TEXTS:
        tokenizer.encode(text, special_mode="special")
        tokenizer.encode(text, special_mode="text")


@pytest.mark.parametrize("text", TEXTS)
def test_ids_equal_hugging_face(many_added: Path, text: str) -> None:
    theirs = tokenizers.Tokenizer.from_file(str(many_added))
    ours = load_tokenizer(str(many_added))
    assert ours.encode(text, special_mode="special") == theirs.encode(text).ids
    theirs.encode_special_tokens = True  # HF's switch for special-token text encoded as text: our "text" mode
    assert ours.encode(text, special_mode="text") == theirs.encode(text).ids
