"""Hostile resources from the command line, run as a user runs them -- a whole process under an
address-space limit set in the child: a device behind a file name, an endless device as a corpus,
a huge standard input, memory running out anyway. Each is one line and exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpe_cli import main as cli_main
from bpe_engine.memory_budget import note_input
from tests.limited_cli import run_cli

CORPUS = "low lower lowest newer newest wider widest\n" * 20


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("saved")
    (root / "c.txt").write_text(CORPUS)
    assert cli_main.main(["train", str(root / "c.txt"), "--vocab-size", "270", "-o", str(root / "tok")]) == 0
    return root / "tok"


def test_a_saved_directory_whose_tokenizer_json_is_a_symlink_to_dev_zero(saved: Path, tmp_path: Path) -> None:
    hostile = tmp_path / "tok"
    hostile.mkdir()
    for f in saved.iterdir():
        (hostile / f.name).write_bytes(f.read_bytes())
    (hostile / "tokenizer.json").unlink()
    (hostile / "tokenizer.json").symlink_to("/dev/zero")
    ran = run_cli(["encode", "-t", str(hostile), "--ids", "hello"])
    assert ran.code == 2
    assert "tokenizer.json: is a character device (a symlink to /dev/zero), not a regular file" in ran.one_line()


def test_a_tokenizer_file_that_is_a_symlink_to_dev_zero(tmp_path: Path) -> None:
    (tmp_path / "tokenizer.json").symlink_to("/dev/zero")
    ran = run_cli(["encode", "-t", str(tmp_path / "tokenizer.json"), "--ids", "hello"])
    assert ran.code == 2 and "symlink to /dev/zero" in ran.one_line()


def test_a_corpus_that_is_a_symlink_to_a_device_is_refused(tmp_path: Path) -> None:
    (tmp_path / "c.txt").symlink_to("/dev/zero")
    ran = run_cli(["train", str(tmp_path / "c.txt"), "--vocab-size", "300", "-o", str(tmp_path / "o")])
    assert ran.code == 2
    assert ran.one_line().endswith("is a character device (a symlink to /dev/zero), not a regular file; expected a corpus file")


def test_train_on_dev_urandom_stops_at_the_address_space_limit_and_says_so(tmp_path: Path) -> None:
    ran = run_cli(["train", "/dev/urandom", "--vocab-size", "300", "-o", str(tmp_path / "o")], address_space=800_000_000)
    assert ran.code == 2
    line = ran.one_line()
    assert "the word table will not fit in memory" in line and "(RLIMIT_AS 762.9 MiB" in line
    assert "/dev/urandom is a device, read as a stream that may never end" in line


def test_train_on_dev_urandom_is_bounded_by_memory_limit(tmp_path: Path) -> None:
    ran = run_cli(["train", "/dev/urandom", "--vocab-size", "300", "--memory-limit", "40M", "-o", str(tmp_path / "o")])
    assert ran.code == 2
    line = ran.one_line()
    assert "more than the 40.0 MiB available (--memory-limit)" in line and "/dev/urandom is a device" in line


def test_inspect_of_a_large_standard_input_under_a_limit_is_refused_before_it_is_read_whole() -> None:
    ran = run_cli(["inspect", "-t", "gpt2", "-"], address_space=700_000_000, stdin=b"a" * 20_000_000)
    assert ran.code == 2
    assert ran.one_line().startswith("bpe-explorer: error: standard input holds more than ")


def test_a_memory_error_anywhere_is_one_line_naming_the_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import bpe_cli.cmd_encode as cmd_encode

    def runs_out(args: object) -> int:
        note_input("huge.json", 5 * 2**30, "use a smaller tokenizer file")
        raise MemoryError

    monkeypatch.setattr(cli_main, "build_parser", _parser_with(cmd_encode, runs_out))
    assert cli_main.main(["encode", "-t", "gpt2", "hello"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("bpe-explorer: error: out of memory while working on huge.json (5.0 GiB): the process reached its limit")
    assert err.rstrip().endswith("use a smaller tokenizer file")


def _parser_with(module: object, func: object):  # type: ignore[no-untyped-def]
    build = cli_main.build_parser

    def build_parser(command=None):  # type: ignore[no-untyped-def]
        parser = build(command)
        for action in parser._subparsers._group_actions:  # noqa: SLF001
            action.choices["encode"].set_defaults(func=func)
        return parser

    return build_parser
