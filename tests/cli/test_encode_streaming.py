"""``encode`` streams: ``--ids``, ``--count``, ``--json``, ``--jsonl`` and the readable output are
written block by block, equal to encoding the whole text at once, for every kind of tokenizer;
a stretch that cannot be cut is bounded and refused in one line."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bpe_cli.main import main
from bpe_cli.output import json_text, token_json_fields
from bpe_engine.compare.resolve import resolve_tokenizer
from bpe_engine.streaming import encode_stream
from bpe_engine.types import UNKNOWN_ID

DATA = Path(__file__).resolve().parents[1] / "data"
TEXT = (
    (DATA / "alice29.txt").read_text(encoding="utf-8")[:3000]
    + (DATA / "constitution.txt").read_text(encoding="utf-8")[:600]
    + "\x1b[31m \u202e\x9b <|endoftext|> 👩‍👩‍👧 ﬁn\n"
)


@pytest.fixture(scope="module")
def specs(tmp_path_factory: pytest.TempPathFactory, builtin_model_path: Any) -> dict[str, str]:
    """A tokenizer of every kind, by the spec the command line takes."""
    root = tmp_path_factory.mktemp("enc")
    corpus = root / "corpus.txt"
    corpus.write_text((DATA / "alice29.txt").read_text(encoding="utf-8")[:20_000], encoding="utf-8")
    assert main(["train", str(corpus), "--vocab-size", "300", "-o", str(root / "byte")]) == 0
    assert main(["train", str(corpus), "--vocab-size", "300", "--pre-tokenizer", "end-of-word", "-o", str(root / "eow")]) == 0
    return {
        "gpt2": "gpt2",
        "cl100k_base": "cl100k_base",
        "bert": "bert-base-uncased",
        "trained dir": str(root / "byte"),
        "trained char-level (unknown pieces)": str(root / "eow"),
        "tokenizer.json": str(root / "byte" / "tokenizer.json"),
        "SentencePiece .model": str(builtin_model_path("mistral-v1")),
    }


@pytest.fixture
def tiny_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of ~64 bytes: every stream crosses many block boundaries."""
    monkeypatch.setattr(encode_stream, "ENCODE_BLOCK_BYTES", 64)


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], stdin: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_ids_alone_and_count_alone(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(capsys, monkeypatch, ["encode", "-t", "cl100k_base", "--ids"], "hello world\n")[:2] == (0, "15339 1917 198\n")
    assert run(capsys, monkeypatch, ["encode", "-t", "cl100k_base", "--count", "-"], "hello world\n")[:2] == (0, "3\n")
    assert run(capsys, monkeypatch, ["encode", "-t", "cl100k_base", "--ids", "hello world"], "")[:2] == (0, "15339 1917\n")
    assert run(capsys, monkeypatch, ["encode", "-t", "cl100k_base", "--count"], "")[:2] == (0, "0\n")


@pytest.mark.usefixtures("tiny_blocks")
@pytest.mark.parametrize(
    "kind", ["gpt2", "cl100k_base", "bert", "trained dir", "trained char-level (unknown pieces)", "tokenizer.json", "SentencePiece .model"]
)
def test_every_kind_streams_the_ids_of_the_whole_text(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, specs: dict[str, str], kind: str
) -> None:
    tokenizer = resolve_tokenizer(specs[kind])
    ids = list(tokenizer.encode_detailed(TEXT).ids)
    code, out, _ = run(capsys, monkeypatch, ["encode", "-t", specs[kind], "--ids"], TEXT)
    assert out == " ".join("?" if i == UNKNOWN_ID else str(i) for i in ids) + "\n"
    assert code == (1 if UNKNOWN_ID in ids else 0)
    assert run(capsys, monkeypatch, ["encode", "-t", specs[kind], "--count"], TEXT)[1] == f"{len(ids)}\n"


def reference_json(tokenizer: Any, text: str) -> dict[str, Any]:
    """The --json object built the plain way from the whole text's encoding (the README's fields)."""
    enc = tokenizer.encode_detailed(text)
    raw = enc.text.encode("utf-8", "surrogatepass")
    tokens = [
        {
            "id": None if i == UNKNOWN_ID else i,
            "token": token,
            **token_json_fields(raw[s:e] if i == UNKNOWN_ID else tokenizer.token_bytes(i)),
            "byte_span": [s, e],
            "special": special,
            "unknown": unknown,
        }
        for i, token, (s, e), special, unknown in zip(enc.ids, enc.tokens, enc.byte_spans, enc.special, enc.unknown)
    ]
    notes = list(dict.fromkeys(enc.notes))  # each said once (a symbol and its word-final form may share one)
    return {"tokenizer": tokenizer.name, "tokens": tokens, "ids": [t["id"] for t in tokens], "notes": notes}


@pytest.mark.usefixtures("tiny_blocks")
@pytest.mark.parametrize("kind", ["cl100k_base", "bert", "trained char-level (unknown pieces)", "SentencePiece .model"])
def test_json_streamed_is_the_text_of_the_whole_texts_object(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, specs: dict[str, str], kind: str
) -> None:
    """Byte for byte what json_text of the whole object gives: hazards escaped, Korean as it is."""
    _, out, _ = run(capsys, monkeypatch, ["encode", "-t", specs[kind], "--json"], TEXT)
    assert out == json_text(reference_json(resolve_tokenizer(specs[kind]), TEXT)) + "\n"
    assert "\\ud55c" not in out and "\x1b" not in out and "\u202e" not in out  # Korean as it is, hazards escaped


def test_jsonl_is_one_object_per_line_encoded_alone(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tiny_blocks: None
) -> None:
    lines = ["hello world", "", "windows\r", "한국어 <|endoftext|>", "last without a newline"]
    code, out, err = run(capsys, monkeypatch, ["encode", "-t", "cl100k_base", "--jsonl"], "\n".join(lines))
    tokenizer = resolve_tokenizer("cl100k_base")
    got = [json.loads(row) for row in out.splitlines()]
    assert code == 0 and [g["line"] for g in got] == [1, 2, 3, 4, 5]
    assert [g["ids"] for g in got] == [tokenizer.encode(line) for line in lines]
    assert out.splitlines()[3] == json_text({"line": 4, **reference_json(tokenizer, lines[3])})  # byte for byte
    assert "special-token text" in err  # the note, once, at the end
    assert run(capsys, monkeypatch, ["encode", "-t", "cl100k_base", "--jsonl"], "a\n")[1].count("\n") == 1


def test_readable_output_in_blocks_is_the_whole_texts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tiny_blocks: None
) -> None:
    whole = run(capsys, monkeypatch, ["encode", "-t", "gpt2", TEXT], "")
    streamed = run(capsys, monkeypatch, ["encode", "-t", "gpt2"], TEXT)
    assert streamed == whole and whole[1].count("\n") == 3


class WatchedStdin:
    """Standard input whose every read records how much output was written before it."""

    def __init__(self, data: bytes, out: io.StringIO) -> None:
        self.buffer = self
        self._data, self._out = io.BytesIO(data), out
        self.written_at_read: list[int] = []

    def read(self, n: int = -1) -> bytes:
        self.written_at_read.append(len(self._out.getvalue()))
        return self._data.read(n)


@pytest.mark.parametrize("mode", ["--ids", "--json", "--jsonl"])
def test_each_blocks_output_is_written_before_the_next_block_is_read(monkeypatch: pytest.MonkeyPatch, tiny_blocks: None, mode: str) -> None:
    out = io.StringIO()
    stdin = WatchedStdin(TEXT.encode(), out)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["encode", "-t", "cl100k_base", mode]) == 0
    reads = stdin.written_at_read
    assert len(reads) > 20 and reads[len(reads) // 2] > 0.3 * len(out.getvalue()), "the output waited for the input's end"


def test_a_stretch_that_cannot_be_cut_is_refused_in_one_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """No line start in 1.1 MB of one line for 'characters' (which cuts only there): past a block
    and what --memory-limit allows to hold whole, reading stops with one line and status 2."""
    code, out, err = run(capsys, monkeypatch, ["encode", "-t", "characters", "--ids", "--memory-limit", "1M"], "x" * 1_100_000)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("bpe-explorer: error: standard input: ") and "no line start" in err and "encoded whole" in err


def test_not_utf8_names_the_offset_in_the_whole_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tiny_blocks: None) -> None:
    data = ("word " * 100).encode() + b"\xff"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main(["encode", "-t", "gpt2", "--ids"]) == 2
    assert "not valid UTF-8 (byte 0xff at offset 500)" in capsys.readouterr().err


def test_notes_are_said_once_for_the_whole_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, specs: dict[str, str], tiny_blocks: None
) -> None:
    text = "한국 hello <|endoftext|>\n" * 20
    code, out, err = run(capsys, monkeypatch, ["encode", "-t", specs["trained char-level (unknown pieces)"], "--ids"], text)
    assert code == 1 and "?" in out.split()
    assert len(err.splitlines()) == len(set(err.splitlines())) and "unknown piece" in err


def test_one_output_mode_at_a_time(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["encode", "-t", "gpt2", "--ids", "--json", "x"])
    assert exc.value.code == 2 and "not allowed with" in capsys.readouterr().err
