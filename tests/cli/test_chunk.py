"""``chunk``: JSON lines of at most N tokens each whose texts are the input byte for byte, or raw
chunks ended by NUL; a chunk that cannot fit says so; errors are one line."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bpe_cli.main import main
from bpe_engine.compare.resolve import resolve_tokenizer
from bpe_engine.streaming import encode_stream

DATA = Path(__file__).resolve().parents[1] / "data"
TEXT = (DATA / "alice29.txt").read_text(encoding="utf-8")[:5000] + (DATA / "constitution.txt").read_text(encoding="utf-8")[:800]


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def text_file(tmp_path: Path) -> Path:
    path = tmp_path / "text.txt"
    path.write_bytes(TEXT.encode("utf-8"))
    return path


@pytest.mark.parametrize("spec", ["cl100k_base", "bert-base-uncased", "mistral-v1"])
def test_json_lines_give_the_input_back_and_each_piece_fits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text_file: Path, spec: str
) -> None:
    monkeypatch.setattr(encode_stream, "ENCODE_BLOCK_BYTES", 256)  # many blocks
    code, out, err = run(capsys, ["chunk", "-t", spec, "--max-tokens", "40", str(text_file)])
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and err == ""
    assert "".join(r["text"] for r in rows).encode() == text_file.read_bytes()
    assert [r["byte_span"][0] for r in rows] == [0, *(r["byte_span"][1] for r in rows[:-1])]
    tokenizer = resolve_tokenizer(spec)
    assert all(len(tokenizer.encode(r["text"])) == r["tokens"] <= 40 for r in rows)
    assert set(rows[0]) == {"text", "tokens", "byte_span", "exact"}
    if spec == "cl100k_base":  # cut where no token crosses: the whole text's ids, piece by piece
        assert all(r["exact"] for r in rows)


def test_null_separated_pieces_from_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TEXT.encode()), encoding="utf-8"))
    out = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="utf-8"))
    assert main(["chunk", "-t", "gpt2", "-n", "25", "--null", "-"]) == 0
    pieces = out.getvalue().split(b"\0")
    assert pieces[-1] == b"" and b"".join(pieces) == TEXT.encode()
    assert all(0 < len(resolve_tokenizer("gpt2").encode(p.decode())) <= 25 for p in pieces[:-1])


def test_null_refuses_a_text_holding_a_nul(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "nul.txt"
    path.write_bytes(b"before\0after")
    code, _, err = run(capsys, ["chunk", "-t", "gpt2", "-n", "100", "--null", str(path)])
    assert code == 2 and err.count("\n") == 1 and "NUL byte" in err


def test_a_piece_that_cannot_fit_is_written_and_said(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'국' is two cl100k tokens (bytes of one character): no token boundary inside it is a
    character boundary, so with N = 1 it stays whole, and the status says so."""
    path = tmp_path / "ko.txt"
    path.write_text("한국", encoding="utf-8")
    code, out, err = run(capsys, ["chunk", "-t", "cl100k_base", "-n", "1", str(path)])
    assert [json.loads(line)["text"] for line in out.splitlines()] == ["한", "국"]
    assert code == 1 and "1 chunk(s) encode alone to more than 1 tokens" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["chunk", "-t", "gpt2", "-n", "5", "/no/such/file"], "No such file or directory"),
        (["chunk", "-t", "gpt2", "-n", "5", "--memory-limit", "1M", "{big}"], "no place to cut it into blocks"),
    ],
)
def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str) -> None:
    big = tmp_path / "big.txt"
    big.write_text("x" * 1_200_000, encoding="utf-8")  # one word: no space, no line start
    code, _, err = run(capsys, [a.replace("{big}", str(big)) for a in argv])
    assert code == 2 and err.count("\n") == 1 and message in err and "Traceback" not in err


def test_max_tokens_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["chunk", "-t", "gpt2", "-n", "0", "-"])
    assert exc.value.code == 2 and "--max-tokens/-n: must be 1 or more" in capsys.readouterr().err


def test_every_kind_of_tokenizer_chunks(capsys: pytest.CaptureFixture[str], text_file: Path, tmp_path: Path, builtin_model_path: Any) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    assert main(["train", str(corpus), "--vocab-size", "300", "-o", str(tmp_path / "tok")]) == 0
    capsys.readouterr()
    for spec in (tmp_path / "tok", tmp_path / "tok" / "tokenizer.json", builtin_model_path("sp-unigram-en")):
        code, out, _ = run(capsys, ["chunk", "-t", str(spec), "-n", "30", str(text_file)])
        rows = [json.loads(line) for line in out.splitlines()]
        assert code == 0 and "".join(r["text"] for r in rows) == TEXT and max(r["tokens"] for r in rows) <= 30, spec
