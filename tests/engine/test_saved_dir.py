"""A saved directory is one atomic unit with a manifest, and files keep the umask.

Re-saving another model type leaves no stale files; a reader racing a save never sees a mix;
kill -9 mid-save leaves the previous save intact and its temp directory is cleaned up; the user's
own files are never deleted; file modes follow the umask (an existing 0644 file stays 0644).
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.atomic import atomic_write_text, clean_leftovers
from bpe_engine.errors import TokenizerFileError
from bpe_engine.formats import load_saved, save_spec, save_tokenizer, spec_from_tokenizer
from bpe_engine.pretokenizers import GPT2
from bpe_engine.registry import load_tokenizer
from bpe_engine.training.bpe import BpeTrainerConfig, train

ROOT = Path(__file__).resolve().parents[2]
TEXT = "low lower lowest newer newest wider widest the cat sat on the mat " * 10


def trained(vocab_size: int, *, byte_level: bool = True):
    config = BpeTrainerConfig(vocab_size=vocab_size, byte_level=byte_level, pre_tokenizer=GPT2)
    return train([TEXT], config).tokenizer


def leftovers(target: Path) -> list[str]:
    return sorted(p.name for p in target.parent.iterdir() if p.name.startswith(f".{target.name}."))


def test_resaving_another_model_type_leaves_no_stale_files(tmp_path: Path) -> None:
    out = tmp_path / "tok"
    save_tokenizer(trained(280), out)
    assert {"vocab.json", "merges.txt"} <= {p.name for p in out.iterdir()} and list(out.glob("*.tiktoken"))
    char_level = trained(60, byte_level=False)  # raw spaces in tokens: no vocab.json/merges.txt/.tiktoken
    save_tokenizer(char_level, out)
    assert sorted(p.name for p in out.iterdir()) == ["bpe-explorer.json", "special_tokens_map.json", "tokenizer.json", "tokenizer_config.json"]
    assert load_tokenizer(out).merges == char_level.merges
    assert leftovers(out) == []


def test_a_reader_racing_saves_never_sees_a_mix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Loads run until both saves were seen and at least one load read across a save (a metadata
    read more than the two a clean load makes): the test proves a race happened, not only that
    nothing failed. Up to 3,000 loads; a few hundred are usual."""
    from bpe_engine.formats import saved_dir

    out = tmp_path / "tok"
    a, b = spec_from_tokenizer(trained(270)), spec_from_tokenizer(trained(300))
    a.name, b.name = "a", "b"  # the name lives in bpe-explorer.json, the merges in tokenizer.json
    save_spec(a, out)
    stop = threading.Event()
    errors: list[BaseException] = []
    reads = [0]
    read_metadata = saved_dir.read_metadata

    def counted(root: Path) -> dict:
        reads[0] += 1
        return read_metadata(root)

    monkeypatch.setattr(saved_dir, "read_metadata", counted)

    def writer() -> None:
        try:
            while not stop.is_set():
                for spec in (b, a):
                    save_spec(spec, out)
                    time.sleep(0.003)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    thread = threading.Thread(target=writer)
    thread.start()
    seen = set()
    loads = retried = 0
    try:
        while loads < 3000 and (seen != {"a", "b"} or not retried):
            before = reads[0]
            spec = load_saved(out)
            loads += 1
            retried += reads[0] - before > 2
            assert spec.merges in (a.merges, b.merges) and spec.vocab in (a.vocab, b.vocab)
            assert (spec.merges == a.merges) == (spec.vocab == a.vocab), "vocab of one save, merges of another"
            assert (spec.name == "a") == (spec.merges == a.merges), "metadata of one save, merges of another"
            seen.add(spec.name)
    finally:
        stop.set()
        thread.join()
    assert not errors, errors
    assert seen == {"a", "b"} and retried, f"no race in {loads} loads (seen {seen}, {retried} read again)"
    assert leftovers(out) == []


KILLED_SAVER = """
import sys
from bpe_engine.formats import save_spec, spec_from_tokenizer
from bpe_engine.catalog.openai import load_reference
spec = spec_from_tokenizer(load_reference("gpt2").with_merge_prefix(10000))
spec.name = "again"
print("ready", flush=True)
while True:
    save_spec(spec, sys.argv[1])
"""


def test_kill_9_mid_save_keeps_a_consistent_directory_and_no_litter(tmp_path: Path) -> None:
    out = tmp_path / "tok"
    save_tokenizer(load_tokenizer("gpt2").with_merge_prefix(10000), out)  # MBs of files: killed mid-write
    original = load_saved(out)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for delay in (0.3, 0.8):
        proc = subprocess.Popen([sys.executable, "-c", KILLED_SAVER, str(out)], stdout=subprocess.PIPE, env=env, text=True)
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        spec = load_saved(out)  # whole: one save or the other, never a mix
        assert spec.name in ("gpt2", "again") and spec.merges == original.merges and spec.vocab == original.vocab
        expected = {
            "bpe-explorer.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.json", "merges.txt",
            f"{spec.name}.tiktoken",
        }
        assert {p.name for p in out.iterdir()} == expected  # one save's files, nothing more
        assert leftovers(out) == []  # the load cleaned what the dead saver left
    assert clean_leftovers(out) == []


def test_a_save_never_deletes_the_users_files(tmp_path: Path) -> None:
    (tmp_path / "corpus.txt").write_text("my corpus", encoding="utf-8")
    with pytest.raises(TokenizerFileError, match=r"holds files a save would delete \(corpus.txt\)"):
        save_tokenizer(trained(270), tmp_path)
    assert (tmp_path / "corpus.txt").read_text(encoding="utf-8") == "my corpus"


def test_cli_train_checks_the_output_before_training(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    assert main(["train", str(corpus), "--vocab-size", "300", "-o", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert "holds files a save would delete" in captured.err and "merging" not in captured.err


def test_a_file_that_does_not_match_the_manifest_is_named(tmp_path: Path) -> None:
    save_tokenizer(trained(270), tmp_path / "tok")
    merges = tmp_path / "tok" / "merges.txt"
    merges.write_text(merges.read_text(encoding="utf-8") + "x y\n", encoding="utf-8")
    with pytest.raises(TokenizerFileError, match="merges.txt does not match its manifest entry"):
        load_saved(tmp_path / "tok")


def test_version_1_directories_still_load(tmp_path: Path) -> None:
    tok = trained(270)
    save_tokenizer(tok, tmp_path / "tok")
    meta_path = tmp_path / "tok" / "bpe-explorer.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    del meta["manifest"]
    meta["version"] = 1
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    assert load_tokenizer(tmp_path / "tok").merges == tok.merges
    save_tokenizer(tok, tmp_path / "tok")  # and a save replaces them
    assert json.loads(meta_path.read_text(encoding="utf-8"))["version"] == 2


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    yield
    os.umask(old)


def test_saved_files_follow_the_umask(tmp_path: Path, umask_027: None) -> None:
    out = tmp_path / "tok"
    save_tokenizer(trained(270), out)
    assert stat.S_IMODE(out.stat().st_mode) == 0o750
    assert {stat.S_IMODE(p.stat().st_mode) for p in out.iterdir()} == {0o640}


def test_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "vocab.json"
    path.write_text("{}", encoding="utf-8")
    os.chmod(path, 0o644)
    atomic_write_text(path, '{"a": 0}')
    assert stat.S_IMODE(path.stat().st_mode) == 0o644 and path.read_text(encoding="utf-8") == '{"a": 0}'


@pytest.mark.parametrize("where", [".", "..", "here"])
def test_a_save_never_replaces_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """'train -o .' in an empty directory swapped it away under the user's shell, which was left
    in a deleted directory ('ls -la .' showed nothing, the files were in a new one of that name)."""
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    with pytest.raises(TokenizerFileError, match="is the current directory .*name a directory inside it"):
        save_tokenizer(trained(270), where if where != "here" else str(here))
    assert Path.cwd() == here and os.path.samefile(".", here) and list(here.iterdir()) == []
    save_tokenizer(trained(270), "my-tokenizer")  # inside it is fine
    assert (here / "my-tokenizer" / "bpe-explorer.json").exists()
