"""``count --engine dask`` given options that cannot work, and a cluster that dies under it.

Seen before: ``--workers 1000`` started a thousand processes on 2 cores (``--workers 200`` spent
170 s on 2.8 KB); ``--workers 0`` or ``-1`` hung; ``--scheduler garbage://%%`` was a traceback; a
scheduler killed mid-count printed 58 lines and 3 tracebacks. None of these tests starts more than
one Dask process (a scheduler without workers).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bpe_cli.main import main
from tests.cli.test_subprocess import ROOT, cli
from tests.oracles import require

require("distributed")

TEXT = "the cat sat on the mat, 한국어 텍스트는 바이트로 쪼개진다.\n" * 50


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "c.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


@pytest.mark.parametrize("workers", ["0", "-1"])
def test_no_workers_is_refused(corpus: Path, tmp_path: Path, capsys, workers: str) -> None:  # noqa: ANN001
    code, err = run(capsys, "count", str(corpus), "--engine", "dask", "--workers", workers, "-o", str(tmp_path / "o.tsv"))
    assert code == 2 and "argument --workers: must be 1 or more" in err
    assert not (tmp_path / "o.tsv").exists()


def test_an_address_no_scheduler_has_is_one_line(corpus: Path, tmp_path: Path, capsys) -> None:  # noqa: ANN001
    code, err = run(capsys, "count", str(corpus), "--engine", "dask", "--scheduler", "garbage://%%", "-o", str(tmp_path / "o.tsv"))
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "cannot use the Dask scheduler 'garbage://%%': unknown address scheme 'garbage'" in err
    assert not (tmp_path / "o.tsv").exists()


def test_more_workers_than_cores_are_capped_unless_the_user_insists(
    corpus: Path, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch  # noqa: ANN001
) -> None:
    """Counted with the local engine, whose pool the test records (no process is started)."""
    from bpe_engine.corpus import parallel

    asked: list[int] = []
    monkeypatch.setattr(parallel, "usable_cores", lambda: 2)
    monkeypatch.setattr("bpe_cli.cmd_count.usable_cores", lambda: 2)
    monkeypatch.setattr(parallel, "ordered_map", lambda fn, units, job, workers, window=None: asked.append(workers))
    monkeypatch.setattr("bpe_engine.corpus.tally.PARALLEL_THRESHOLD", 0)  # the pool is asked for even on 3 KB
    code, err = run(capsys, "count", str(corpus), "--workers", "1000", "-o", str(tmp_path / "o.tsv"))
    assert code == 0 and "--workers 1000 is more than the 2 cores here: 2 count at once (--oversubscribe" in err
    code, err = run(capsys, "count", str(corpus), "--workers", "3", "--oversubscribe", "-o", str(tmp_path / "p.tsv"))
    assert code == 0 and "note" not in err
    assert asked == [2, 3]
    assert (tmp_path / "o.tsv").read_bytes() == (tmp_path / "p.tsv").read_bytes()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_line(log: Path, text: str, process: subprocess.Popen[Any], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while text not in log.read_text(encoding="utf-8", errors="replace"):
        assert process.poll() is None, log.read_text(encoding="utf-8", errors="replace")[-2000:]
        assert time.monotonic() < deadline, f"no {text!r} in {log.name}:\n" + log.read_text(encoding="utf-8", errors="replace")[-2000:]
        time.sleep(0.1)


def test_a_scheduler_killed_under_a_count_is_one_line_and_nothing_is_written(corpus: Path, tmp_path: Path) -> None:
    """A scheduler without workers holds the count until it is killed. It is killed once it logs the
    client's connection: mostly the count is mid-run then ("lost ... while counting"), but with both
    cores busy the kill can land inside the client's handshake ("cannot use ..."); either way the user
    reads one line naming the scheduler and nothing is written."""
    port = free_port()
    log = tmp_path / "scheduler.log"
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    with log.open("wb") as sink:
        scheduler = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=sink, stderr=subprocess.STDOUT, env=env, cwd=tmp_path,
        )
    try:
        wait_for_line(log, "Scheduler at", scheduler)
        out = tmp_path / "o.tsv"
        counting = subprocess.Popen(
            [sys.executable, "-m", "bpe_cli.main", "count", str(corpus), "--engine", "dask", "--scheduler", f"tcp://127.0.0.1:{port}", "-o", str(out)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**env, "NO_COLOR": "1"}, cwd=tmp_path,
        )
        try:
            wait_for_line(log, "Receive client connection", scheduler)
            scheduler.kill()
            scheduler.wait(10)
            _, err = counting.communicate(timeout=120)
        finally:
            if counting.poll() is None:
                counting.kill()
                counting.wait(10)
    finally:
        if scheduler.poll() is None:
            scheduler.kill()
            scheduler.wait(10)
    assert counting.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err, err[-3000:]
    scheduler_named = f"the Dask scheduler 'tcp://127.0.0.1:{port}'"
    lost = f"lost {scheduler_named} while counting" in err and "nothing was written" in err
    assert lost or f"cannot use {scheduler_named}: " in err, err
    assert not out.exists()


def test_the_help_names_the_cap() -> None:
    done = cli("count", "--help")
    assert done.returncode == 0 and "--oversubscribe" in done.stdout
