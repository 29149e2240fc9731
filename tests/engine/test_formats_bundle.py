"""save_spec / load_saved: every format written, the directory reloads to the same spec."""

from __future__ import annotations

import json
import os

import pytest

from bpe_engine.bpe.byte_table import BYTE_ALPHABET
from bpe_engine.errors import TokenizerFileError
from bpe_engine.formats import load_gpt2_files, load_saved, read_hf_json, read_tiktoken, save_spec, spec_from_tokenizer
from bpe_engine.formats.bundle import METADATA_FILE, tiktoken_ranks
from bpe_engine.formats.spec import BpeSpec
from bpe_engine.pretokenizers import CL100K, WHITESPACE, custom


def byte_spec(pre=CL100K) -> BpeSpec:
    vocab = {c: i for i, c in enumerate(BYTE_ALPHABET)}
    merges = [("Ġ", "t"), ("h", "e"), ("Ġt", "he")]
    for left, right in merges:
        vocab[left + right] = len(vocab)
    return BpeSpec(name="my tok", vocab=vocab, merges=merges, pre_tokenizer=pre, byte_level=True,
                   special_tokens={"<|endoftext|>": len(vocab)})


def test_byte_level_directory_round_trip(tmp_path):
    spec = byte_spec()
    written = save_spec(spec, tmp_path / "out")
    names = sorted(p.name for p in written)
    assert names == sorted([
        "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.json", "merges.txt",
        "my_tok.tiktoken", METADATA_FILE,
    ])
    assert load_saved(tmp_path / "out") == spec
    vocab, merges = load_gpt2_files(tmp_path / "out" / "vocab.json", tmp_path / "out" / "merges.txt")
    assert vocab == spec.full_vocab() and merges == spec.merges
    ranks = read_tiktoken(tmp_path / "out" / "my_tok.tiktoken")
    assert ranks[b" the"] == spec.vocab["Ġthe"] and len(ranks) == len(spec.vocab)
    meta = json.loads((tmp_path / "out" / METADATA_FILE).read_text(encoding="utf-8"))
    assert meta["version"] == 2 and meta["pre_tokenizer"] == {"name": "cl100k", "pattern": CL100K.pattern}


def test_custom_regex_survives_via_metadata(tmp_path):
    spec = byte_spec(custom(r"\p{N}{1,3}+|\S+"))
    save_spec(spec, tmp_path)
    assert load_saved(tmp_path).pre_tokenizer == spec.pre_tokenizer


def test_char_level_with_newline_tokens_skips_merges_txt(tmp_path):
    spec = BpeSpec(name="c", vocab={"▁a": 0, "\n": 1, "▁a\n": 2}, merges=[("▁a", "\n")],
                   pre_tokenizer=WHITESPACE, byte_level=False)
    names = {p.name for p in save_spec(spec, tmp_path)}
    assert names == {"tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", METADATA_FILE}
    assert load_saved(tmp_path) == spec
    assert json.loads((tmp_path / METADATA_FILE).read_text(encoding="utf-8"))["files"]["merges.txt"] is None


def test_no_tiktoken_without_all_bytes(tmp_path):
    spec = byte_spec()
    del spec.vocab["Ā"]
    assert tiktoken_ranks(spec) is None


def test_metadata_from_the_future(tmp_path):
    save_spec(byte_spec(), tmp_path)
    meta = json.loads((tmp_path / METADATA_FILE).read_text(encoding="utf-8"))
    meta["version"] = 99
    (tmp_path / METADATA_FILE).write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(TokenizerFileError, match="newer bpe-explorer"):
        load_saved(tmp_path)


def test_loads_from_gpt2_files_when_tokenizer_json_is_gone(tmp_path):
    spec = byte_spec()
    save_spec(spec, tmp_path)
    (tmp_path / "tokenizer.json").unlink()
    assert load_saved(tmp_path) == spec


def test_output_path_is_a_file(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(TokenizerFileError, match="not a directory"):
        save_spec(byte_spec(), tmp_path / "f")


def test_failed_save_leaves_previous_files(tmp_path, monkeypatch):
    save_spec(byte_spec(), tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    bigger = byte_spec()
    bigger.merges.append(("Ġthe", "Ġthe"))
    bigger.vocab["ĠtheĠthe"] = len(bigger.vocab) + 1

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        save_spec(bigger, tmp_path)
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert read_hf_json(tmp_path / "tokenizer.json").merges == byte_spec().merges


def test_the_training_log_keeps_each_merges_count_and_why(tmp_path):
    """A directory saved with its training's steps keeps them in training.jsonl: counts, the words
    changed, the runner-up, the tied pairs and the rule; a directory saved without keeps none."""
    from bpe_engine.formats import load_merge_counts
    from bpe_engine.formats.training_log import read_training_log
    from bpe_engine.pretokenizers import END_OF_WORD_SEPARATE
    from bpe_engine.training.bpe import BpeTrainerConfig, train

    text = " ".join(["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3)
    result = train([text], BpeTrainerConfig(vocab_size=30, byte_level=False, pre_tokenizer=END_OF_WORD_SEPARATE))
    save_spec(spec_from_tokenizer(result.tokenizer), tmp_path / "a", steps=result.steps)
    assert load_merge_counts(tmp_path / "a") == [s.count for s in result.steps]
    log = read_training_log(tmp_path / "a")
    assert log is not None and [r["merge"] for r in log] == list(range(1, len(result.steps) + 1))
    first = log[0]["why"]
    assert (log[0]["left"], log[0]["right"], first["value"]) == ("e", "s", 9)
    assert first["tied"] == [["s", "t"], ["t", "</w>"]] and first["rule"].startswith("hf:")
    save_spec(byte_spec(), tmp_path / "b")
    assert load_merge_counts(tmp_path / "b") is None
    assert load_merge_counts(tmp_path) is None
