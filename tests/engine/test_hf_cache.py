"""Tokenizers in a Hugging Face hub cache, found and loaded with no network.

The cache is laid out here the way ``huggingface_hub`` writes it (``models--ORG--NAME/blobs``,
``snapshots/<rev>/`` symlinks, ``refs/main``), holding the fetched built-in files and a small
tokenizer.json trained here.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine import BpeTrainerConfig, save_tokenizer, train
from bpe_engine.catalog import cache_root, discover_hf_tokenizers, find_hf_tokenizer, hub_cache_dirs, list_models
from bpe_engine.errors import BpeEngineError
from bpe_engine.registry import load_tokenizer


def add_snapshot(root: Path, repo_id: str, revision: str, files: dict[str, Path | None], *, main_ref: bool = True) -> Path:
    """One snapshot of ``repo_id``: each file a symlink into blobs/ (None: a dangling link)."""
    repo = root / ("models--" + repo_id.replace("/", "--"))
    snapshot = repo / "snapshots" / revision
    snapshot.mkdir(parents=True)
    (repo / "blobs").mkdir(exist_ok=True)
    for name, source in files.items():
        blob = repo / "blobs" / f"{revision}-{name}"
        if source is not None:
            shutil.copyfile(source, blob)
        (snapshot / name).symlink_to(os.path.relpath(blob, snapshot))
    if main_ref:
        (repo / "refs").mkdir(exist_ok=True)
        (repo / "refs" / "main").write_text(revision)
    return snapshot


@pytest.fixture
def tiny_tokenizer_json(tmp_path: Path) -> Path:
    """A byte-level BPE trained here and saved as tokenizer.json (a kind that loads today)."""
    out = tmp_path / "trained"
    result = train(["low lower lowest newer wider 한국어"], BpeTrainerConfig(vocab_size=270))
    save_tokenizer(result.tokenizer, out)
    return out / "tokenizer.json"


@pytest.fixture
def hub(tmp_path: Path, builtin_model_path, tiny_tokenizer_json: Path, monkeypatch: pytest.MonkeyPatch) -> Path:  # type: ignore[no-untyped-def]
    root = tmp_path / "hub"
    add_snapshot(root, "anthropic/claude-legacy", "a1", {"tokenizer.json": builtin_model_path("claude-legacy")})
    add_snapshot(root, "mistralai/Mistral-7B-v0.1", "b1", {"tokenizer.model": builtin_model_path("mistral-v1"), "config.json": None})
    add_snapshot(root, "google/sp-test", "main-rev", {"tokenizer.model": builtin_model_path("sp-unigram-en")})
    newer = add_snapshot(root, "google/sp-test", "newer-rev", {"tokenizer.model": builtin_model_path("sp-unigram-ja")}, main_ref=False)
    os.utime(newer, (2e9, 2e9))
    older = add_snapshot(root, "orphan/no-refs", "old", {"tokenizer.json": tiny_tokenizer_json}, main_ref=False)
    os.utime(older, (1e9, 1e9))
    add_snapshot(root, "orphan/no-refs", "new", {"tokenizer.model": builtin_model_path("sp-unigram-ja")}, main_ref=False)
    add_snapshot(root, "broken/link", "c1", {"tokenizer.json": None})
    add_snapshot(root, "tiny", "t1", {"tokenizer.json": tiny_tokenizer_json})
    (root / "datasets--someone--data" / "snapshots" / "d1").mkdir(parents=True)
    for var in ("HF_HOME", "HUGGINGFACE_HUB_CACHE", "XDG_CACHE_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HF_HUB_CACHE", str(root))
    monkeypatch.setenv("BPE_EXPLORER_CACHE_DIR", str(cache_root()))  # the built-ins stay where they are
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # the real ~/.cache/huggingface must not leak in
    return root


def test_discovery_takes_refs_main_else_the_newest_snapshot(hub: Path) -> None:
    found = {t.repo_id: t for t in discover_hf_tokenizers()}
    assert sorted(found) == ["anthropic/claude-legacy", "google/sp-test", "mistralai/Mistral-7B-v0.1", "orphan/no-refs", "tiny"]
    assert found["anthropic/claude-legacy"].kind == "tokenizer.json"
    assert found["mistralai/Mistral-7B-v0.1"].kind == "sentencepiece"
    assert found["google/sp-test"].revision == "main-rev"  # refs/main wins over a newer snapshot
    assert found["orphan/no-refs"].revision == "new" and found["orphan/no-refs"].kind == "sentencepiece"
    assert found["tiny"].spec == "hf:tiny"
    assert found["google/sp-test"].path.read_bytes() == (hub / "models--google--sp-test" / "blobs" / "main-rev-tokenizer.model").read_bytes()


def test_cache_directories_follow_huggingface_hub_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("a", "home/.cache/huggingface/hub", "hf-home/hub", "xdg/huggingface/hub"):
        (tmp_path / name).mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "a"))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("HUGGINGFACE_HUB_CACHE", raising=False)
    expected = ["a", "hf-home/hub", "xdg/huggingface/hub", "home/.cache/huggingface/hub"]
    assert hub_cache_dirs() == [tmp_path / p for p in expected]


def test_hf_name_loads_without_network_same_ids_as_the_file(hub: Path, tiny_tokenizer_json: Path) -> None:
    tok = load_tokenizer("hf:tiny")
    assert tok.name == "hf:tiny"
    text = "lower 한국어 newest"
    assert tok.encode(text, special_mode="text") == load_tokenizer(tiny_tokenizer_json).encode(text, special_mode="text")
    snapshot = find_hf_tokenizer("hf:tiny").path.parent
    assert load_tokenizer(snapshot).encode(text, special_mode="text") == tok.encode(text, special_mode="text")  # or a path


def test_hf_tokenizer_json_loads_with_hugging_faces_ids(hub: Path) -> None:
    from tokenizers import Tokenizer as HfReference

    found = find_hf_tokenizer("hf:anthropic/claude-legacy")
    tok = load_tokenizer("hf:anthropic/claude-legacy")
    assert tok.name == "hf:anthropic/claude-legacy"
    text = "Hello 한국어 ﬁ\n\tcode()"
    expected = HfReference.from_file(str(found.path)).encode(text, add_special_tokens=False).ids
    assert tok.encode(text, special_mode="text") == expected


def test_hf_sentencepiece_model_loads_with_sentencepieces_ids(hub: Path) -> None:
    import sentencepiece

    found = find_hf_tokenizer("hf:mistralai/Mistral-7B-v0.1")
    tok = load_tokenizer("hf:mistralai/Mistral-7B-v0.1")
    assert (found.kind, tok.name) == ("sentencepiece", "hf:mistralai/Mistral-7B-v0.1")
    text = "Hello 한국어 ﬁ 1234\n\tcode()"
    expected = sentencepiece.SentencePieceProcessor(model_file=str(found.path)).encode(text)
    assert tok.encode(text, special_mode="text") == expected


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("hf:nobody/nothing", "hf:nobody/nothing is not in the Hugging Face cache (searched "),
        ("hf:broken/link", "holds no snapshot with tokenizer.json / tokenizer.model / tekken.json"),
        ("hf:../../etc", "is not a Hugging Face name"),
        ("hf:a--b/c", "is not a Hugging Face name"),
    ],
)
def test_unknown_or_bad_names_are_one_clear_line(hub: Path, spec: str, message: str) -> None:
    with pytest.raises(BpeEngineError) as info:
        load_tokenizer(spec)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_models_lists_hub_tokenizers(hub: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [r for r in list_models() if r.origin == "hf-cache"]
    assert [r.name for r in rows] == ["hf:anthropic/claude-legacy", "hf:google/sp-test", "hf:mistralai/Mistral-7B-v0.1", "hf:orphan/no-refs", "hf:tiny"]
    assert all(r.state == "present" and r.how == "" for r in rows)
    assert main(["models", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hf_cache_dirs"] == [str(hub)]
    assert "hf:tiny" in {m["name"] for m in data["models"]}
    assert main(["encode", "-t", "hf:tiny", "--json", "lower"]) == 0
    assert json.loads(capsys.readouterr().out)["ids"] == load_tokenizer("hf:tiny").encode("lower", special_mode="text")
