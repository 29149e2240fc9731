"""Wrong JSON types in the files the loaders read -- bpe-explorer.json and vocab.json -- are
one clear line naming the file and the field, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.errors import TokenizerFileError
from bpe_engine.formats import save_tokenizer
from bpe_engine.pretokenizers import NONE
from bpe_engine.registry import load_tokenizer


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    tok = BpeTokenizer(name="t", vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")], pre_tokenizer=NONE, byte_level=False)
    save_tokenizer(tok, tmp_path / "tok")
    return tmp_path / "tok"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"pre_tokenizer": "gpt2"}, '"pre_tokenizer" is "gpt2"; expected an object'),
        ({"pre_tokenizer": {"name": "regex", "pattern": 5}}, '"pre_tokenizer.pattern" is 5; expected a string'),
        ({"pre_tokenizer": {"Regex": 5}}, "unknown pre-tokenizer None without a pattern"),
        ({"byte_level": "yes"}, '"byte_level" is "yes"; expected true or false'),
        ({"rank_table": 1}, '"rank_table" is 1; expected true or false'),
        ({"special_tokens": ["<s>"]}, '"special_tokens" is ["<s>"]; expected an object'),
        ({"special_tokens": {"<s>": "3"}}, "has id '3', which is not an integer"),
        ({"unk_token": 7}, '"unk_token" is 7; expected a string'),
        ({"name": ["x"]}, '"name" is ["x"]; expected a string'),
        ({"version": "2"}, '"version" is \'2\'; expected an integer'),
        ({"manifest": {"tokenizer.json": "abc"}}, '"manifest" must map file names'),
        ({"merge_counts": ["1"]}, None),
    ],
)
def test_bpe_explorer_json_field_types(saved: Path, change: dict, field: str | None) -> None:
    meta_path = saved / "bpe-explorer.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta.update(change)
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    if field is None:  # merge_counts only matter to `merges`; loading still works
        assert load_tokenizer(saved).merges == [("a", "b")]
        return
    with pytest.raises(TokenizerFileError) as err:
        load_tokenizer(saved)
    message = str(err.value)
    assert message.startswith(str(meta_path)) and field in message and "\n" not in message


@pytest.mark.parametrize(
    ("vocab", "words"),
    [({"a": "0"}, "has id '0', which is not an integer"), ({"a": 1.5}, "not an integer"), ({"a": None}, "not an integer")],
)
def test_vocab_json_id_types(tmp_path: Path, vocab: dict, words: str) -> None:
    (tmp_path / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    (tmp_path / "merges.txt").write_text("#version: 0.2\n", encoding="utf-8")
    with pytest.raises(TokenizerFileError, match=words):
        load_tokenizer(tmp_path)
