"""`bpe-explorer compare`: table, aligned rows and JSON, on the offline reference tokenizers."""

from __future__ import annotations

import io
import json
import sys

import pytest

from bpe_cli.main import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_rows_hold_tokens_and_hand_checked_stats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["compare", "--json", "--tokenizers", "characters,words,gpt2,cl100k_base", "한국어 hello"], capsys)
    assert code == 0
    data = json.loads(out)
    rows = {r["name"]: r for r in data["rows"]}
    assert list(rows) == ["characters", "whitespace words", "gpt2", "cl100k_base"]
    gpt2 = rows["gpt2"]
    # gpt2: 한국어 = 8 tokens (known ids), then " hello"
    assert [t["id"] for t in gpt2["tokens"]][:8] == [47991, 250, 166, 113, 255, 168, 244, 112]
    assert gpt2["stats"]["tokens"] == 9 and gpt2["stats"]["partial_tokens"] == 8
    assert (gpt2["tokens"][0]["text"], gpt2["tokens"][0]["bytes"]) == (None, "ed95") and gpt2["tokens"][0]["char_span"] == [0, 1]
    assert rows["characters"]["stats"]["tokens"] == 9 and rows["characters"]["stats"]["bytes"] == 15
    assert rows["whitespace words"]["stats"]["tokens_per_word"] == 1.0
    assert data["disagreements"]  # the rows cut differently


def test_known_ids_hello_world(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(["compare", "--json", "--tokenizers", "gpt2,cl100k_base", "hello world"], capsys)
    rows = json.loads(out)["rows"]
    assert [[t["id"] for t in r["tokens"]] for r in rows] == [[31373, 995], [15339, 1917]]


def test_special_modes_change_counts_and_refuse_names_the_fix(capsys: pytest.CaptureFixture[str]) -> None:
    text = "hello <|endoftext|>"
    counts = {}
    for mode in ("special", "text"):
        _, out, _ = _run(["compare", "--json", "--special-mode", mode, "--tokenizers", "gpt2", text], capsys)
        row = json.loads(out)["rows"][0]
        counts[mode] = row["stats"]["tokens"]
        if mode == "special":
            assert [t["id"] for t in row["tokens"]] == [31373, 220, 50256]
    assert counts["special"] < counts["text"]
    code, out, err = _run(["compare", "--tokenizers", "gpt2,characters", "--width", "80", text], capsys)
    assert code == 0 and "│h│e│l│l│o│" in out and "--special-mode special" in err  # default text, with a note
    code, out, _ = _run(["compare", "--special-mode", "refuse", "--tokenizers", "gpt2,characters", "--width", "80", text], capsys)
    assert code == 0 and "mode 'special'" in out and "--special-mode special" in out and "special_mode=" not in out
    code, out, _ = _run(["compare", "--special-mode", "refuse", "--tokenizers", "gpt2", text], capsys)
    assert code == 1 and "every tokenizer failed" in out  # every row failed -> non-zero


def test_table_and_aligned_rows_are_inert_on_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["compare", "--tokenizers", "characters,gpt2", "--width", "80", "a\x1b[2J\u202eb \ud800"], capsys)
    assert code == 0
    assert "\x1b[2J" not in out and "\u202e" not in out
    assert "␛" in out and "<RLO>" in out and "lone surrogate" in out


def test_stdin_and_empty_text(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("한\n".encode())))
    _, out, _ = _run(["compare", "--json", "--tokenizers", "characters", "-"], capsys)
    assert json.loads(out)["rows"][0]["stats"]["tokens"] == 2
    code, out, _ = _run(["compare", "--json", "--tokenizers", "characters,gpt2", ""], capsys)
    assert code == 0 and all(r["stats"]["tokens"] == 0 for r in json.loads(out)["rows"])


def test_unknown_tokenizer_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["compare", "--tokenizers", "gpt2,nonsense-name", "x"], capsys)
    assert code == 2 and "nonsense-name" in err and err.count("\n") == 1
    code, _, err = _run(["compare", "--tokenizers", " , ", "x"], capsys)
    assert code == 2 and "at least one" in err
    code, _, err = _run(["compare", "--tokenizers", "ours", "x"], capsys)
    assert code == 2 and "saved" in err


def test_the_unknown_share_is_the_count_encode_prints(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: ANN001
    """A character-level model without an unknown token: encode said "6 tokens, 3 unknown" and
    compare's UNK column said "–" for the same text."""
    corpus = tmp_path / "tiny.txt"
    corpus.write_text("low lower lowest newer\n", encoding="utf-8")
    model = str(tmp_path / "tiny")
    assert main(["train", str(corpus), "--char-level", "--pre-tokenizer", "whitespace", "--vocab-size", "20", "-o", model]) == 0
    capsys.readouterr()
    text = "low 한국어 lower"
    _, out, _ = _run(["encode", "-t", model, text], capsys)
    assert "6 tokens, 3 unknown" in out
    _, out, _ = _run(["compare", "--tokenizers", f"{model},gpt2", text], capsys)
    assert out.splitlines()[2].split("│")[-1].strip() == "50.0%", out
    _, out, _ = _run(["compare", "--json", "--tokenizers", model, text], capsys)
    assert json.loads(out)["rows"][0]["stats"]["unk_tokens"] == 3
