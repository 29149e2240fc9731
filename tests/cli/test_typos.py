"""Words a user gets wrong: a command or an option misspelled, a short option another command
has, a tokenizer path that is not there. Each is one line that names what was typed and, where
one is close, what was meant.

Seen before: ``encodee hello`` opened the app on a file "encodee" ("cannot read encodee: No such
file or directory"); ``encode --tokenzier gpt2`` said "--tokenizer is required"; ``compare -t``
was refused while ``encode -t`` worked; ``-t ./nosuchdir`` printed the list of accepted kinds.
"""

from __future__ import annotations

import pytest

from bpe_cli.main import build_parser, main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_misspelled_command_is_named_not_opened_as_a_file(capsys, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    monkeypatch.setattr("tui.launch.run_app", lambda argv: pytest.fail(f"the app was opened on {argv}"))
    code, _, err = run(capsys, "encodee", "hello")
    assert code == 2 and err == "bpe-explorer: error: unknown command 'encodee'; did you mean encode? ('bpe-explorer --help' lists the commands)\n"


def test_a_file_named_like_a_command_still_opens_the_app(tmp_path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    opened: list[list[str]] = []
    monkeypatch.setattr("tui.launch.run_app", lambda argv: opened.append(argv) or 0)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "trian").write_text("a corpus\n", encoding="utf-8")
    assert run(capsys, "trian")[0] == 0 and opened == [["trian"]]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["encode", "--tokenzier", "gpt2", "hello"], "bpe-explorer encode: error: unknown option --tokenzier; did you mean --tokenizer?"),
        (["count", "x.txt", "-o", "y", "--workrs", "3"], "bpe-explorer count: error: unknown option --workrs; did you mean --workers?"),
        (["models", "fetch", "--forse"], "bpe-explorer models fetch: error: unknown option --forse; did you mean --force?"),
        (["train", "x.txt", "--zzz"], "bpe-explorer train: error: unknown option --zzz ('bpe-explorer train --help' lists its options)"),
    ],
)
def test_a_misspelled_option_is_named_with_the_one_meant(capsys, argv: list[str], message: str) -> None:  # noqa: ANN001
    code, _, err = run(capsys, *argv)
    assert code == 2 and err == message + "\n"


def test_abbreviated_and_attached_options_still_work(capsys) -> None:  # noqa: ANN001
    assert run(capsys, "encode", "--tok", "gpt2", "--special-mode=text", "hello")[0] == 0


def test_every_command_that_takes_tokenizers_takes_dash_t(capsys) -> None:  # noqa: ANN001
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices  # noqa: SLF001
    for name, sub in commands.items():
        long = [o for o in sub._option_string_actions if o.startswith("--tokenizer")]  # noqa: SLF001
        if long:
            assert sub._option_string_actions["-t"] is sub._option_string_actions[long[0]], name  # noqa: SLF001
    code, out, _ = run(capsys, "compare", "-t", "gpt2,cl100k_base", "--json", "hello world")
    assert code == 0 and '"name": "cl100k_base"' in out


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("./nosuchdir", "unknown tokenizer './nosuchdir': no such file or directory"),
        ("missing/tokenizer.json", "unknown tokenizer 'missing/tokenizer.json': no such file or directory"),
        ("gpt5", "unknown tokenizer 'gpt5'; did you mean gpt2?"),
    ],
)
def test_a_tokenizer_that_is_not_there_is_said_in_a_few_words(capsys, spec: str, message: str) -> None:  # noqa: ANN001
    code, _, err = run(capsys, "encode", "-t", spec, "hi")
    assert code == 2 and message in err and len(err) < 140, err
