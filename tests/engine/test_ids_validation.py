"""Ids are validated at load (non-negative, below a sane bound, unique, no gaps where
the format forbids them) and at decode -- one clear line naming file and id, and fast."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.catalog.openai import load_reference
from bpe_engine.core.byte_table import BYTE_TO_CHAR
from bpe_engine.errors import BpeEngineError, ConfigError, TokenizerFileError
from bpe_engine.formats import save_tokenizer
from bpe_engine.pretokenizers import GPT2, NONE
from bpe_engine.registry import load_tokenizer

BYTES = {BYTE_TO_CHAR[b]: b for b in range(256)}


def small_bpe(**extra: object) -> BpeTokenizer:
    vocab = {"a": 0, "b": 1, "ab": 2}
    return BpeTokenizer(name="tiny", vocab=vocab, merges=[("a", "b")], pre_tokenizer=NONE, byte_level=False, **extra)  # type: ignore[arg-type]


def test_decode_refuses_negative_ids_instead_of_indexing_from_the_end() -> None:
    gpt2 = load_reference("gpt2")
    with pytest.raises(ConfigError, match="unknown piece"):
        gpt2.decode([-1])
    with pytest.raises(ConfigError, match="-3 .*is negative"):
        gpt2.decode([31373, -3])
    with pytest.raises(ConfigError, match="is negative"):
        small_bpe().decode([-2])
    with pytest.raises(ConfigError):
        gpt2.token_bytes(-1)


def test_special_tokens_are_checked_at_construction() -> None:
    with pytest.raises(ConfigError, match="special token '' is empty"):
        small_bpe(special_tokens={"": 3})
    with pytest.raises(ConfigError, match="has id -4, which is negative"):
        small_bpe(special_tokens={"<s>": -4})
    with pytest.raises(ConfigError, match="above the largest id"):
        small_bpe(special_tokens={"<s>": 10**12})


def test_vocab_ids_are_checked_at_construction() -> None:
    with pytest.raises(ConfigError, match="negative"):
        BpeTokenizer(name="t", vocab={"a": -1}, merges=[], pre_tokenizer=NONE, byte_level=False)
    with pytest.raises(ConfigError, match="above the largest id"):
        BpeTokenizer(name="t", vocab={"a": 10**12}, merges=[], pre_tokenizer=NONE, byte_level=False)
    with pytest.raises(ConfigError, match="above the largest id"):
        BpeTokenizer.from_ranks(name="t", mergeable_ranks={**{bytes([b]): b for b in range(256)}, b"ab": 10**12}, pre_tokenizer=GPT2)


def saved(tmp_path: Path) -> Path:
    save_tokenizer(small_bpe(special_tokens={"<s>": 3}), tmp_path / "tok")
    return tmp_path / "tok"


def rewrite_metadata(root: Path, **changes: object) -> None:
    meta_path = root / "bpe-explorer.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta.update(changes)
    meta_path.write_text(json.dumps(meta), encoding="utf-8")


@pytest.mark.parametrize(
    ("value", "words"),
    [(-4, "has id -4, which is negative"), (10**12, "above the largest id"), ("3", "not an integer"), (True, "not an integer")],
)
def test_bpe_explorer_json_special_ids(tmp_path: Path, value: object, words: str) -> None:
    root = saved(tmp_path)
    rewrite_metadata(root, special_tokens={"<s>": value})
    with pytest.raises(TokenizerFileError) as err:
        load_tokenizer(root)
    message = str(err.value)
    assert message.startswith(str(root / "bpe-explorer.json")) and "'<s>'" in message and words in message


def test_vocab_json_huge_and_negative_ids_name_file_and_id(tmp_path: Path) -> None:
    for value, words in ((10**12, "above the largest id"), (-5, "negative")):
        (tmp_path / "vocab.json").write_text(json.dumps({**{c: b for c, b in BYTES.items()}, "Ġt": value}), encoding="utf-8")
        (tmp_path / "merges.txt").write_text("#version: 0.2\nĠ t\n", encoding="utf-8")
        with pytest.raises(TokenizerFileError) as err:
            load_tokenizer(tmp_path)
        assert str(tmp_path / "vocab.json") in str(err.value) and "'Ġt'" in str(err.value) and words in str(err.value)


def rank_file(path: Path, ranks: dict[bytes, int]) -> Path:
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for t, r in ranks.items()), encoding="ascii")
    return path


def test_tiktoken_huge_rank_is_refused_quickly(tmp_path: Path) -> None:
    ranks = {bytes([b]): b for b in range(256)}
    path = rank_file(tmp_path / "big.tiktoken", {**ranks, b"ab": 10**12})
    with pytest.raises(TokenizerFileError, match=r"big.tiktoken, line 257: .*rank 1000000000000, which is above the largest id"):
        load_tokenizer(path)


def test_tiktoken_rank_gaps_are_said_unless_a_special_token_fills_them(tmp_path: Path) -> None:
    ranks = {bytes([b]): b for b in range(256)}
    path = rank_file(tmp_path / "gap.tiktoken", {**ranks, b"ab": 300})
    tok = load_tokenizer(path)
    assert tok.notes and "gap.tiktoken has no rank for id(s) 256-299 (44 in all)" in tok.notes[0]
    # The official p50k_base rank file skips 50256, the id of <|endoftext|>: it loads, with its ids.
    p50k = load_reference("p50k_base")
    path = rank_file(tmp_path / "p50k_base.tiktoken", p50k.mergeable_ranks)
    loaded = load_tokenizer(path)
    assert loaded.encode("hello <|endoftext|>", special_mode="special") == [31373, 220, 50256] and loaded.notes == ()


@pytest.mark.parametrize("name", ["gpt2", "p50k_base", "cl100k_base", "o200k_base"])
def test_the_reference_rank_tables_have_gaps_only_where_specials_are(name: str) -> None:
    """Why refusing other gaps is safe: the official tables run 0..n-1 once their specials are counted."""
    tok = load_reference(name)
    ids = sorted([*tok.mergeable_ranks.values(), *tok.special_tokens.values()])
    top = ids[-1]
    missing = sorted(set(range(top + 1)) - set(ids))
    # cl100k/o200k leave unused ids between the ranks and their specials (tiktoken's n_vocab counts them)
    assert all(m > max(tok.mergeable_ranks.values()) for m in missing), missing[:5]


def test_every_id_error_is_one_line(tmp_path: Path) -> None:
    root = saved(tmp_path)
    rewrite_metadata(root, special_tokens={"<s>": -4})
    with pytest.raises(BpeEngineError) as err:
        load_tokenizer(root)
    assert "\n" not in str(err.value)
