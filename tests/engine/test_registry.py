"""load_tokenizer: reference names, saved directories, foreign directories and single files."""

from __future__ import annotations

import json
import shutil

import pytest

from bpe_engine.catalog.openai import REFERENCE_NAMES
from bpe_engine.errors import BpeEngineError, TokenizerFileError
from bpe_engine.formats import read_tiktoken, save_tokenizer
from bpe_engine.pretokenizers import CL100K, END_OF_WORD, GPT2, WHITESPACE
from bpe_engine.registry import available_tokenizers, load_spec, load_tokenizer
from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining

SAMPLE = "the cat sat on the mat. the hat! 한국어 텍스트, 한국어 <|endoftext|> ok\n"


def trained(pre=GPT2, byte_level=True, vocab_size=300):
    training = BpeTraining(
        [SAMPLE * 3, "The mat and the hat\n"],
        BpeTrainerConfig(vocab_size=vocab_size, pre_tokenizer=pre, byte_level=byte_level, special_tokens=("<|endoftext|>",)),
    )
    for _ in training.steps():
        pass
    return training.tokenizer("sample")


def test_available_lists_references():
    names = available_tokenizers()
    assert names[: len(REFERENCE_NAMES)] == list(REFERENCE_NAMES)


def test_reference_by_name():
    assert load_tokenizer("gpt2").encode("hello world") == [31373, 995]


@pytest.mark.parametrize(("pre", "byte_level"), [(GPT2, True), (CL100K, True), (WHITESPACE, False), (END_OF_WORD, False)])
def test_saved_directory_gives_same_ids(tmp_path, pre, byte_level):
    tok = trained(pre, byte_level)
    save_tokenizer(tok, tmp_path)
    back = load_tokenizer(tmp_path)
    assert back.name == "sample" and back.byte_level == byte_level and back.pre_tokenizer == pre
    assert back.special_tokens == tok.special_tokens
    assert back.merges == tok.merges
    text = SAMPLE.replace("<|endoftext|>", "")
    assert back.encode(text) == tok.encode(text)
    assert back.encode(SAMPLE, special_mode="special") == tok.encode(SAMPLE, special_mode="special")


def test_each_file_on_its_own(tmp_path):
    tok = trained()
    save_tokenizer(tok, tmp_path / "saved")
    text = "the cat and the hat"
    expected = tok.encode(text)
    hf_only = tmp_path / "hf"
    hf_only.mkdir()
    shutil.copy(tmp_path / "saved" / "tokenizer.json", hf_only / "tokenizer.json")
    assert load_tokenizer(hf_only).encode(text) == expected
    assert load_tokenizer(hf_only / "tokenizer.json").encode(text) == expected
    gpt2_style = tmp_path / "gpt2style"
    gpt2_style.mkdir()
    for name in ("vocab.json", "merges.txt"):
        shutil.copy(tmp_path / "saved" / name, gpt2_style / name)
    from_pair = load_tokenizer(gpt2_style / "vocab.json")
    assert from_pair.encode(text) == expected and from_pair.special_tokens == {"<|endoftext|>": 0}
    assert load_tokenizer(gpt2_style).encode(text) == expected
    rank_file = tmp_path / "saved" / "sample.tiktoken"
    ranks = load_tokenizer(rank_file)
    assert ranks.is_rank_table and len(read_tiktoken(rank_file)) == len(tok.vocab) - 1
    assert ranks.encode(text) == expected  # rank order = merge order for our trained ids
    assert ranks.decode(ranks.encode(SAMPLE, special_mode="text")) == SAMPLE


def test_reference_named_rank_file_gets_reference_regex_and_specials(tmp_path):
    from bpe_engine.catalog.openai import reference_ranks
    from bpe_engine.formats import write_tiktoken

    write_tiktoken(tmp_path / "r50k_base.tiktoken", reference_ranks("r50k_base"))
    tok = load_tokenizer(tmp_path / "r50k_base.tiktoken")
    assert tok.special_tokens == {"<|endoftext|>": 50256}
    assert tok.encode("hello world <|endoftext|>", special_mode="special") == [31373, 995, 220, 50256]


def test_unknown_spec_lists_forms(tmp_path):
    with pytest.raises(BpeEngineError) as err:
        load_tokenizer("gpt-7")
    message = str(err.value)
    assert "unknown tokenizer 'gpt-7'" in message and "cl100k_base" in message and ".tiktoken" in message
    (tmp_path / "empty").mkdir()
    with pytest.raises(TokenizerFileError, match="holds no tokenizer files"):
        load_tokenizer(tmp_path / "empty")
    (tmp_path / "x.bin").write_bytes(b"\0")
    with pytest.raises(BpeEngineError, match="cannot tell the format"):
        load_tokenizer(tmp_path / "x.bin")


def test_malformed_saved_directory_names_file(tmp_path):
    save_tokenizer(trained(), tmp_path)
    text = (tmp_path / "tokenizer.json").read_text(encoding="utf-8")
    (tmp_path / "tokenizer.json").write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(TokenizerFileError) as err:
        load_tokenizer(tmp_path)
    assert "tokenizer.json does not match its manifest entry" in str(err.value)
    (tmp_path / "bpe-explorer.json").unlink()  # without the record, the file is read as it is
    with pytest.raises(TokenizerFileError, match="tokenizer.json, line"):
        load_tokenizer(tmp_path)


def test_vocab_json_without_merges(tmp_path):
    (tmp_path / "vocab.json").write_text(json.dumps({"a": 0}), encoding="utf-8")
    with pytest.raises(TokenizerFileError, match="needs merges.txt"):
        load_tokenizer(tmp_path / "vocab.json")


def test_load_spec(tmp_path):
    save_tokenizer(trained(), tmp_path)
    spec = load_spec(tmp_path)
    assert spec.name == "sample" and spec.byte_level and len(spec.merges) > 0


def test_wordpiece_forms():
    assert "bert-base-uncased" in available_tokenizers()
    assert load_tokenizer("bert-base-uncased").encode("hello") == [101, 7592, 102]  # HF's default: [CLS] ... [SEP]


def test_wordpiece_files_dispatch(tmp_path):
    from bpe_engine import wordpiece

    bert = wordpiece.bert_base_uncased()
    wordpiece.save_hf_json(bert, tmp_path / "tokenizer.json")
    loaded = load_tokenizer(tmp_path / "tokenizer.json")  # read as Hugging Face reads it: [CLS] ... [SEP]
    assert loaded.encode("unaffable") == bert.encode("unaffable")  # [CLS] ... [SEP] on both, by default
    assert loaded.encode("unaffable", add_special_tokens=False) == bert.encode("unaffable", add_special_tokens=False)
    only_txt = tmp_path / "txt"
    only_txt.mkdir()
    wordpiece.save_vocab_txt(bert, only_txt / "vocab.txt")
    assert load_tokenizer(only_txt).encode("unaffable") == [101, 14477, 20961, 3468, 102]


def test_random_text_file_is_not_guessed(tmp_path):
    (tmp_path / "notes.txt").write_text("hello\n", encoding="utf-8")
    with pytest.raises(BpeEngineError, match="cannot tell the format"):
        load_tokenizer(tmp_path / "notes.txt")


def test_save_tokenizer_hands_wordpiece_to_its_package(tmp_path):
    from bpe_engine import wordpiece

    bert = wordpiece.bert_base_uncased()
    written = save_tokenizer(bert, tmp_path / "bert")
    assert sorted(p.name for p in written) == ["bpe-explorer.json", "special_tokens_map.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt"]
    assert load_tokenizer(tmp_path / "bert").encode("unaffable", add_special_tokens=False) == [14477, 20961, 3468]
