"""tiktoken rank files: round trip and line-numbered errors."""

from __future__ import annotations

import base64

import pytest

from bpe_engine.errors import TokenizerFileError
from bpe_engine.formats import tiktoken_files as t

FULL = {bytes([b]): b for b in range(256)} | {b"ab": 256, b" the": 257, "한".encode(): 258}


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_round_trip(tmp_path):
    t.write_tiktoken(tmp_path / "x.tiktoken", FULL)
    assert t.read_tiktoken(tmp_path / "x.tiktoken") == FULL
    lines = (tmp_path / "x.tiktoken").read_text().splitlines()
    assert lines[0] == "AA== 0" and lines[-1] == f"{b64('한'.encode())} 258"


def rank_file(tmp_path, extra: str):
    path = tmp_path / "bad.tiktoken"
    path.write_text(t.tiktoken_text(FULL) + extra)
    return path


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("@@notbase64 300\n", "bad base64"),
        (f"{b64(b'xyz')} 12x\n", "not an integer"),
        (f"{b64(b'xyz')} 256\n", "duplicate rank 256 (first on line 257)"),
        (f"{b64(b'ab')} 300\n", "duplicate token b'ab' (first on line 257)"),
        (f"{b64(b'xyz')}\n", "two fields"),
        (f"{b64(b'xyz')} -4\n", "negative"),
    ],
)
def test_malformed_line(tmp_path, extra, message):
    with pytest.raises(TokenizerFileError) as err:
        t.read_tiktoken(rank_file(tmp_path, extra))
    assert message in str(err.value)
    assert err.value.line == 260 and "bad.tiktoken, line 260" in str(err.value)


def test_missing_single_bytes(tmp_path):
    ranks = {k: v for k, v in FULL.items() if k not in (b"\x00", b"\xff")}
    path = tmp_path / "m.tiktoken"
    t.write_tiktoken(path, ranks)
    with pytest.raises(TokenizerFileError, match=r"missing 2 of the 256 single bytes \(0x00, 0xFF\)"):
        t.read_tiktoken(path)
    assert t.read_tiktoken(path, require_all_bytes=False) == ranks


def test_blank_lines_skipped(tmp_path):
    path = tmp_path / "b.tiktoken"
    path.write_text("\n" + t.tiktoken_text(FULL) + "\n\n")
    assert t.read_tiktoken(path) == FULL
