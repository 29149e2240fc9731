"""``bpe-explorer serve``'s arguments: checked before any server starts (``test_serve_sessions.py`` and the
browser test drive the server)."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

import pytest

import bpe_cli.cmd_serve as cmd_serve
from bpe_cli.main import main


def test_app_command_runs_this_python_on_absolute_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    failures, tried = doctest.testmod(cmd_serve, verbose=False)
    assert tried > 0 and failures == 0
    monkeypatch.chdir(tmp_path)
    assert cmd_serve.app_command(["a b.txt"]) == [sys.executable, "-m", "bpe_cli.main", str(tmp_path / "a b.txt")]


def test_a_missing_file_fails_before_serving(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "1", str(tmp_path / "nope.txt")]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and err.count("\n") == 1


@pytest.mark.parametrize("port", ["0", "65536", "http"])
def test_a_bad_port_is_refused(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--port", port])
    assert stopped.value.code == 2 and "--port" in capsys.readouterr().err


@pytest.mark.parametrize("count", ["0", "65", "many"])
def test_a_bad_session_cap_is_refused(count: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--max-sessions", count])
    assert stopped.value.code == 2 and "--max-sessions" in capsys.readouterr().err
