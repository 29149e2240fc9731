"""Running ``bpe-explorer`` as a whole process under memory limits set in the child.

The limits a user runs under (``prlimit --as``, ``ulimit -v``, ``ulimit -d``) are set with
``resource.setrlimit`` between fork and exec, so only the child is bounded; the test then asserts
on what a user sees: the exit status and one line on stderr, never a traceback. The timeout is a
safety net for a regression that hangs, not an assertion on time.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ADDRESS_SPACE = 1_500_000_000
"""The limit of the attacks this guards against (``prlimit --as=1500000000``)."""


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str

    def one_line(self) -> str:
        """stderr, asserted to be one line of ours (no traceback): the line."""
        assert "Traceback" not in self.err, self.err[-3000:]
        lines = self.err.strip().splitlines()
        assert len(lines) == 1, self.err[-3000:]
        return lines[0]


def limits(address_space: int | None = ADDRESS_SPACE, data: int | None = None) -> Callable[[], None]:
    """A ``preexec_fn`` that sets RLIMIT_AS and/or RLIMIT_DATA in the child."""

    def apply() -> None:
        if address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        if data is not None:
            resource.setrlimit(resource.RLIMIT_DATA, (data, data))

    return apply


def run_cli(
    argv: list[str],
    *,
    address_space: int | None = ADDRESS_SPACE,
    data: int | None = None,
    stdin: bytes | None = None,
    cwd: Path | None = None,
    timeout: float = 300,
) -> Ran:
    """``python -m bpe_cli.main ARGV`` under the limits; its status, stdout and stderr."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", "NO_COLOR": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "bpe_cli.main", *argv],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        preexec_fn=limits(address_space, data),
        env=env,
        cwd=cwd,
        timeout=timeout,
    )
    return Ran(proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"))
