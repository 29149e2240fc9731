"""GPT-2 vocab.json + merges.txt: round trip, and every malformed file names its line."""

from __future__ import annotations

import json
import os

import pytest

from bpe_engine.errors import TokenizerFileError
from bpe_engine.formats import gpt2_files as g

VOCAB = {"a": 0, "b": 1, "Ġ": 2, "ab": 3, "Ġab": 4, "<|endoftext|>": 5}
MERGES = [("a", "b"), ("Ġ", "ab")]


def write(tmp_path, vocab_text: str, merges_text: str):
    (tmp_path / "vocab.json").write_text(vocab_text, encoding="utf-8")
    (tmp_path / "merges.txt").write_text(merges_text, encoding="utf-8")
    return tmp_path / "vocab.json", tmp_path / "merges.txt"


def test_round_trip(tmp_path):
    g.write_vocab_json(tmp_path / "vocab.json", VOCAB)
    g.write_merges_txt(tmp_path / "merges.txt", MERGES)
    assert (tmp_path / "merges.txt").read_text(encoding="utf-8").splitlines()[0] == "#version: 0.2"
    vocab, merges = g.load_gpt2_files(tmp_path / "vocab.json", tmp_path / "merges.txt")
    assert vocab == VOCAB and list(vocab.values()) == sorted(vocab.values())
    assert merges == MERGES


def test_header_is_optional_and_crlf_accepted(tmp_path):
    v, m = write(tmp_path, json.dumps(VOCAB), "a b\r\nĠ ab\r\n")
    assert g.load_gpt2_files(v, m)[1] == MERGES


def test_merge_with_three_fields_names_line(tmp_path):
    v, m = write(tmp_path, json.dumps(VOCAB), "#version: 0.2\na b\nĠ a b\n")
    with pytest.raises(TokenizerFileError) as err:
        g.load_gpt2_files(v, m)
    assert err.value.line == 3 and err.value.path == str(m)
    assert "merges.txt, line 3" in str(err.value) and "3 field(s)" in str(err.value)


def test_merge_with_one_field(tmp_path):
    _, m = write(tmp_path, "{}", "#version: 0.2\nab\n")
    with pytest.raises(TokenizerFileError) as err:
        g.read_merges_txt(m)
    assert err.value.line == 2


def test_duplicate_merge(tmp_path):
    _, m = write(tmp_path, "{}", "a b\n\na b\n")
    with pytest.raises(TokenizerFileError, match="repeats line 1") as err:
        g.read_merges_txt(m)
    assert err.value.line == 3


@pytest.mark.parametrize(
    ("merges_text", "role", "line"),
    [("#version: 0.2\na b\nb c\n", "right half 'c'", 3), ("a b\nb a\n", "result 'ba'", 2)],
)
def test_vocab_merges_disagreement(tmp_path, merges_text, role, line):
    v, m = write(tmp_path, json.dumps(VOCAB), merges_text)
    with pytest.raises(TokenizerFileError) as err:
        g.load_gpt2_files(v, m)
    assert role in str(err.value) and err.value.line == line and "do not belong together" in str(err.value)


def test_duplicate_ids_names_line_of_second_token(tmp_path):
    text = '{\n  "a": 0,\n  "b": 1,\n  "c": 1\n}\n'
    v, _ = write(tmp_path, text, "")
    with pytest.raises(TokenizerFileError, match="duplicate id 1") as err:
        g.read_vocab_json(v)
    assert err.value.line == 4


def test_duplicate_key(tmp_path):
    v, _ = write(tmp_path, '{"a": 0,\n"a": 1}', "")
    with pytest.raises(TokenizerFileError, match="appears twice") as err:
        g.read_vocab_json(v)
    assert err.value.line == 2


def test_truncated_json_gives_line_and_column(tmp_path):
    v, _ = write(tmp_path, '{\n"a": 0,\n"b": ', "")
    with pytest.raises(TokenizerFileError) as err:
        g.read_vocab_json(v)
    assert err.value.line == 3 and "column" in str(err.value) and "truncated" in str(err.value)


@pytest.mark.parametrize(("text", "message"), [('{"a": "0"}', "not an integer"), ('{"a": -1}', "negative"), ("[1]", "JSON object")])
def test_bad_ids(tmp_path, text, message):
    v, _ = write(tmp_path, text, "")
    with pytest.raises(TokenizerFileError, match=message):
        g.read_vocab_json(v)


def test_non_ascii_key_located_when_escaped(tmp_path):
    text = '{"\\u0120a": 0,\n"\\u0120b": 0}'
    v, _ = write(tmp_path, text, "")
    with pytest.raises(TokenizerFileError) as err:
        g.read_vocab_json(v)
    assert err.value.line == 2


def test_missing_and_non_utf8_files(tmp_path):
    with pytest.raises(TokenizerFileError, match="file not found"):
        g.read_vocab_json(tmp_path / "nope.json")
    (tmp_path / "merges.txt").write_bytes(b"a b\n\xff c\n")
    with pytest.raises(TokenizerFileError, match="not valid UTF-8") as err:
        g.read_merges_txt(tmp_path / "merges.txt")
    assert err.value.line == 2


def test_unwritable_merge_refused():
    with pytest.raises(TokenizerFileError, match="tokenizer.json instead"):
        g.merges_text([("a b", "c")])


def test_save_is_atomic(tmp_path, monkeypatch):
    g.write_merges_txt(tmp_path / "merges.txt", MERGES)
    before = (tmp_path / "merges.txt").read_bytes()

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        g.write_merges_txt(tmp_path / "merges.txt", [("x", "y")])
    assert (tmp_path / "merges.txt").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["merges.txt"]
