"""Closed and broken standard streams, as a shell hands them to the CLI.

A closed stdin (``<&-``) is one clear line, not an AttributeError traceback; a reader that goes
away (``merges --json | head``) ends the command quietly, as other CLIs do; a closed or full
stdout is an error (exit 2), never exit 0 with the output lost.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = f"{sys.executable} -m bpe_cli.main"


def shell(script: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path, encoding="utf-8"
    )


@pytest.mark.parametrize(
    "command",
    ["encode -t characters", "decode -t characters -", "inspect -t characters -", "train - --vocab-size 300 -o out"],
)
def test_closed_stdin_is_one_clear_line(tmp_path: Path, command: str) -> None:
    done = shell(f"{CLI} {command} <&-", tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "standard input is closed" in done.stderr
    assert "Traceback" not in done.stderr


def test_broken_pipe_ends_quietly(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("hello world\n" * 20000, encoding="utf-8")  # far more than a pipe holds
    done = shell(f"{CLI} inspect -t characters - < big.txt 2>err.txt | head -n 2; echo \"status=${{PIPESTATUS[0]}}\"", tmp_path)
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and lines[0].lstrip().startswith("#") and lines[2] == "status=141"
    assert (tmp_path / "err.txt").read_text(encoding="utf-8") == ""  # no "error: [Errno 32]", no traceback


def test_closed_stdout_is_an_error_not_a_silent_success(tmp_path: Path) -> None:
    done = shell(f"{CLI} encode -t characters hello >&-", tmp_path)
    assert done.returncode == 2 and "standard output is closed" in done.stderr


def test_full_stdout_is_an_error(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    done = shell(f"{CLI} encode -t characters --json hello > /dev/full", tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "No space left on device" in done.stderr
