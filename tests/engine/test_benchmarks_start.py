"""Every benchmark script starts: ``--help`` exits 0 in a fresh interpreter.

Benchmarks are scripts, not tests, so nothing else imports them; a renamed engine symbol or a moved
test helper broke three of them unnoticed (``bench_naive_trainer``, ``bench_pty``,
``bench_app_memory``). Starting each one catches that class of breakage without running it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted(p for p in (Path(__file__).parents[2] / "benchmarks").glob("*.py") if not p.name.startswith("_"))


def test_there_are_benchmarks() -> None:
    assert len(BENCHMARKS) >= 15


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda p: p.stem)
def test_the_benchmark_starts(script: Path) -> None:
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and "usage:" in done.stdout, done.stderr[-2000:]
