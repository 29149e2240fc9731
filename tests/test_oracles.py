"""A missing reference library skips its tests on a developer's machine and fails them under CI
(``tests/oracles.py``): checked in-process, and on the outcome of a whole pytest run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.oracles import require, under_ci

ROOT = Path(__file__).resolve().parent.parent
MISSING = "bpe_explorer_oracle_that_is_not_installed"


@pytest.mark.parametrize(("value", "ci"), [("true", True), ("1", True), ("", False), ("false", False), ("0", False)])
def test_ci_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch, value: str, ci: bool) -> None:
    monkeypatch.setenv("CI", value)
    assert under_ci() is ci


def test_a_present_oracle_is_returned_with_or_without_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    assert require("json") is json
    monkeypatch.delenv("CI")
    assert require("json") is json


def test_a_missing_oracle_skips_locally_and_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=f"{MISSING} is not installed"):
        require(MISSING)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=f"CI run: {MISSING} is not installed.*pip install -e"):
        require(MISSING)


def run_pytest(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    """pytest on two tiny test files that need a module that is not installed: one requires it at
    import (as the parity modules do), one inside its test."""
    (tmp_path / "test_needs_it_at_import.py").write_text(
        textwrap.dedent(f"""
            from tests.oracles import require

            oracle = require("{MISSING}")

            def test_a_claim():
                assert oracle
        """),
        encoding="utf-8",
    )
    (tmp_path / "test_needs_it_in_a_test.py").write_text(
        textwrap.dedent(f"""
            from tests.oracles import require

            def test_a_claim():
                assert require("{MISSING}")
        """),
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    if ci is not None:
        env["CI"] = ci
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", "--continue-on-collection-errors", str(tmp_path)]
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_without_ci_a_run_missing_an_oracle_is_green_and_says_what_it_skipped(tmp_path: Path) -> None:
    run = run_pytest(tmp_path, ci=None)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 skipped" in run.stdout and f"{MISSING} is not installed" in run.stdout


def test_under_ci_a_run_missing_an_oracle_fails(tmp_path: Path) -> None:
    run = run_pytest(tmp_path, ci="true")
    assert run.returncode != 0, run.stdout + run.stderr
    assert "1 failed" in run.stdout and "1 error" in run.stdout, run.stdout
    assert run.stdout.count(f"CI run: {MISSING} is not installed") >= 2 and "skipped" not in run.stdout
