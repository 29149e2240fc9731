"""Opening the app on files it cannot show: one clear line on stderr, exit status 2, no app."""

from __future__ import annotations

from tui.launch import run_app


def test_binary_file_says_what_to_do(tmp_path, capsys) -> None:
    binary = tmp_path / "image.bin"
    binary.write_bytes(b"GIF89a\x00\xd0\xff\x1b[31m")
    assert run_app([str(binary)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "looks like a binary file (NUL byte at offset 6)" in err
    assert "bpe-explorer train" in err


def test_latin1_file_says_what_to_do(tmp_path, capsys) -> None:
    latin = tmp_path / "latin.txt"
    latin.write_bytes("café au lait".encode("latin-1"))
    assert run_app([str(latin)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "not valid UTF-8 (byte 0xe9 at offset 3)" in err and "iconv" in err


def test_missing_file(tmp_path, capsys) -> None:
    assert run_app([str(tmp_path / "nope.txt")]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "No such file" in err
