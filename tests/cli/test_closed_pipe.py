"""A reader that goes away ends every command the same quiet way.

The commands that print through Rich (the encode line, the merges table, compare) exited 1 on a
closed pipe -- Rich's own handler raises ``SystemExit(1)`` -- while ``--json`` and ``inspect``
exited 141 as a process killed by SIGPIPE does; a script could not tell a closed pipe from a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = f"{sys.executable} -m bpe_cli.main"


@pytest.mark.parametrize(
    "command",
    [
        "encode -t characters - < big.txt",
        "merges gpt2",
        "merges gpt2 --json",
        "compare --tokenizers characters,words --width 80 - < small.txt",
        "inspect -t characters - < big.txt",
    ],
)
def test_a_closed_pipe_ends_every_command_quietly_with_sigpipes_status(tmp_path: Path, command: str) -> None:
    (tmp_path / "big.txt").write_text("hello world\n" * 20000, encoding="utf-8")  # far more than a pipe holds
    (tmp_path / "small.txt").write_text("hello world\n" * 3000, encoding="utf-8")  # compare: ~100 KB of rows
    script = f"{CLI} {command} 2>err.txt | head -c 100 >/dev/null; echo \"status=${{PIPESTATUS[0]}}\""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    assert done.stdout.strip() == "status=141", (done.stdout, (tmp_path / "err.txt").read_text(encoding="utf-8"))
    assert (tmp_path / "err.txt").read_text(encoding="utf-8") == ""
