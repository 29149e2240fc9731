"""CLI: escape sequences, C1 controls, bidi overrides, zero-width characters and markup
in file names, directory names and text never reach the terminal raw -- in ``wrote`` lines, the
encode summary, the merges footer, inspect and compare output, or any error naming a path.

Every command is run on every hostile name from ``hostile_text`` (shared with the app's pty sweep);
stdout and stderr must hold only the visible forms (``␛``, ``<RLO>``, ``<U+009B>``, literal ``[bold]``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.display import visible_text
from tests.hostile_text import FILE_NAMES, HOSTILE, assert_inert, assert_literal_markup

CORPUS = "low lower lowest newer newest wider widest\n" * 20


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse errors
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One tokenizer directory per hostile name (its name is the directory name)."""
    out = {}
    root = tmp_path_factory.mktemp("hostile")
    corpus = root / "corpus.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    for key, name in FILE_NAMES.items():
        target = root / name
        assert main(["train", str(corpus), "--vocab-size", "270", "-o", str(target)]) == 0
        out[key] = target
    return out


def check(output: str, name: str) -> None:
    assert_inert(output)
    assert_literal_markup(output, name)


@pytest.mark.parametrize("key", sorted(HOSTILE))
def test_train_wrote_lines_and_notes(tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str) -> None:
    name = FILE_NAMES[key]
    corpus = tmp_path / f"{name}.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    code, output = run(capsys, ["train", str(corpus), "--vocab-size", "270", "-o", str(tmp_path / name)])
    assert code == 0
    check(output, name)
    assert visible_text(name) in output  # the name is shown, in its visible form


COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "encode": lambda d: ["encode", "-t", str(d), "lower newest"],
    "encode-json": lambda d: ["encode", "--json", "-t", str(d), "lower"],
    "decode": lambda d: ["decode", "-t", str(d), "0", "1"],
    "merges": lambda d: ["merges", str(d), "--limit", "3"],
    "inspect": lambda d: ["inspect", "-t", str(d), "lower"],
    "compare": lambda d: ["compare", "--tokenizers", f"{d},characters", "--width", "80", "lower"],
}
SHOWS_NAME = {"encode", "encode-json", "merges", "inspect", "compare"}  # decode prints only the text


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("key", sorted(HOSTILE))
def test_commands_on_a_hostile_tokenizer_name(
    trained: dict[str, Path], capsys: pytest.CaptureFixture[str], command: str, key: str
) -> None:
    code, output = run(capsys, COMMANDS[command](trained[key]))
    assert code == 0, output
    assert_inert(output)
    if command in SHOWS_NAME:
        assert_literal_markup(output, FILE_NAMES[key])


ERRORS: dict[str, Callable[[Path], list[str]]] = {
    "missing-tokenizer": lambda p: ["encode", "-t", str(p / "missing"), "x"],
    "missing-corpus": lambda p: ["train", str(p / "missing.txt"), "--vocab-size", "300", "-o", str(p / "o")],
    "bad-tiktoken": lambda p: ["encode", "-t", str(p / "bad.tiktoken"), "x"],
    "bad-vocab-json": lambda p: ["merges", str(p / "vocab.json")],
    "output-is-a-file": lambda p: ["train", str(p / "bad.tiktoken"), "--vocab-size", "300", "-o", str(p / "bad.tiktoken")],
    "bad-choice": lambda p: ["encode", "--backend", p.name, "-t", "gpt2", "x"],
    "bad-integer": lambda p: ["merges", "gpt2", "--limit", p.name],
}


@pytest.mark.parametrize("case", sorted(ERRORS))
@pytest.mark.parametrize("key", sorted(HOSTILE))
def test_errors_naming_a_hostile_path(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, key: str) -> None:
    folder = tmp_path / FILE_NAMES[key]
    folder.mkdir()
    (folder / "bad.tiktoken").write_text("YQ== 0\n!!! 1\n", encoding="utf-8")
    (folder / "vocab.json").write_text('{"a": "x"}', encoding="utf-8")
    (folder / "merges.txt").write_text("", encoding="utf-8")
    code, output = run(capsys, ERRORS[case](folder))
    assert code == 2, output
    check(output, FILE_NAMES[key])
    assert sum("error:" in line for line in output.splitlines()) == 1  # one error line (argparse adds usage lines)


@pytest.mark.parametrize("key", sorted(HOSTILE))
def test_hostile_text_itself_is_shown_visibly(capsys: pytest.CaptureFixture[str], key: str) -> None:
    for argv in (
        ["encode", "-t", "gpt2", HOSTILE[key]],
        ["inspect", "-t", "gpt2", "--stream", HOSTILE[key]],
        ["compare", "--tokenizers", "gpt2,characters", "--width", "80", HOSTILE[key]],
    ):
        _, output = run(capsys, argv)
        assert_inert(output)
        assert output.count("[") >= HOSTILE[key].count("["), "markup was interpreted"  # tokens split tags apart
    _, output = run(capsys, ["encode", "-t", "gpt2", "--special-mode", "refuse", HOSTILE[key] + "<|endoftext|>"])
    assert_inert(output)
