"""A folder we save is ready for ``transformers``: ``AutoTokenizer.from_pretrained(DIR)`` finds its
special tokens (``tokenizer_config.json``, ``special_tokens_map.json``), gives our ids with and
without the model's own specials, pads a batch with the model's padding token (``padding=True``)
and decodes as we do -- for a trained BPE, WordPiece and Unigram (with and without a ``<pad>``
piece) and for a built-in saved again (bert-base-uncased)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.formats import save_tokenizer
from bpe_engine.formats.transformers_files import CONFIG_FILE, MAP_FILE, special_roles
from bpe_engine.registry import load_tokenizer
from tests.hf_oracle import TRICKY
from tests.transformers_oracle import auto_tokenizer_results

EXPECTED_ROLES = {
    "bpe": {"bos_token": "<|endoftext|>", "eos_token": "<|endoftext|>", "pad_token": "<|endoftext|>"},
    "wordpiece": {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]", "mask_token": "[MASK]"},
    "unigram": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "</s>"},
    "unigram-pad": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"},
    "bert-base-uncased": {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]", "mask_token": "[MASK]"},
}


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory, alice_text: str, korean_text: str) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("saved")
    corpus = root / "corpus.txt"
    corpus.write_text(alice_text[:60_000] + korean_text[:20_000], encoding="utf-8")
    runs = {
        "bpe": ["--vocab-size", "700", "--special", "<|endoftext|>"],
        "wordpiece": ["--model", "wordpiece", "--vocab-size", "1200"],
        "unigram": ["--model", "unigram", "--vocab-size", "900"],
        "unigram-pad": ["--model", "unigram", "--vocab-size", "900", "--pad-id", "3"],
    }
    out = {}
    for name, options in runs.items():
        out[name] = root / name
        assert main(["train", str(corpus), "-o", str(out[name]), *options]) == 0
    out["bert-base-uncased"] = root / "bert-base-uncased"
    save_tokenizer(load_tokenizer("bert-base-uncased"), out["bert-base-uncased"])
    return out


@pytest.fixture(scope="module")
def texts(alice_text: str, korean_text: str) -> list[str]:
    lines = [line for line in alice_text.splitlines()[200:260] + korean_text.splitlines()[40:80] if line.strip()]
    return [*lines, *TRICKY[1:], "text <|endoftext|> then [MASK] and </s>"]


def test_auto_tokenizer_gives_our_ids_pads_and_decodes(folders: dict[str, Path], texts: list[str]) -> None:
    results = auto_tokenizer_results(list(folders.values()), texts)
    for name, folder in folders.items():
        got = results[str(folder)]
        ours = load_tokenizer(str(folder))
        assert got["class"] == "TokenizersBackend", name  # tokenizer.json run as it is, whatever the model
        assert got["special_tokens_map"] == EXPECTED_ROLES[name], name
        assert got["ids"] == [ours.encode(t, special_mode="special") for t in texts], name
        plain = [ours.encode(t, special_mode="special", add_special_tokens=False) for t in texts]
        assert got["plain"] == plain, name
        pad_id = ours.special_tokens[EXPECTED_ROLES[name]["pad_token"]]
        assert got["pad_token_id"] == pad_id, name
        width = max(map(len, got["ids"]))
        assert got["batch"] == [ids + [pad_id] * (width - len(ids)) for ids in got["ids"]], name
        assert got["mask"] == [[1] * len(ids) + [0] * (width - len(ids)) for ids in got["ids"]], name
        specials = set(ours.special_tokens.values())  # (decoders differ on whether to skip them)
        shown = [(text, ours.decode(ids)) for text, ids in zip(got["decoded"], plain) if not specials & set(ids)]
        assert len(shown) >= len(texts) // 2 and all(theirs == mine for theirs, mine in shown), name


def test_the_files_name_each_role_once_and_say_how_to_decode(folders: dict[str, Path]) -> None:
    for name, folder in folders.items():
        config = json.loads((folder / CONFIG_FILE).read_text(encoding="utf-8"))
        roles = json.loads((folder / MAP_FILE).read_text(encoding="utf-8"))
        assert roles == EXPECTED_ROLES[name]
        assert config["tokenizer_class"] == "PreTrainedTokenizerFast" and config["clean_up_tokenization_spaces"] is False
        assert {k: v for k, v in config.items() if k.endswith("_token")} == roles
        manifest = json.loads((folder / "bpe-explorer.json").read_text(encoding="utf-8"))["manifest"]
        assert {CONFIG_FILE, MAP_FILE} <= set(manifest)  # hashed like every other file of the save


def test_roles_come_from_the_model_first_then_from_spelling() -> None:
    assert special_roles([]) == {}
    assert special_roles(["<|im_start|>"]) == {}  # no role is guessed for an unknown spelling
    assert special_roles(["<unk>", "<s>", "</s>", "<pad>"]) == {"bos": "<s>", "eos": "</s>", "unk": "<unk>", "pad": "<pad>"}
    # a declared role wins over a spelling, and a declared token the model lacks is not used
    assert special_roles(["[X]", "<s>"], {"bos": "[X]", "eos": "<missing>"}) == {"bos": "[X]"}
