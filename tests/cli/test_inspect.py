"""`bpe-explorer inspect`: per-token bytes, roles, spans and partial flags; stream and merge tree."""

from __future__ import annotations

import json
import re

import pytest

from bpe_cli.main import main


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    assert main(["inspect", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_korean_in_gpt2_is_two_partial_tokens_forming_one_group(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(["-t", "gpt2", "한"], capsys)
    first, second = data["tokens"]
    assert (first["id"], first["hex"], first["byte_chars"]) == (47991, "ED 95", "íķ")
    assert first["roles"] == ["lead of 3", "continuation"] and first["standalone"] is None
    assert first["pieces"] == ["bytes 1-2 of 3 of U+D55C"] and first["partial"]
    assert (second["id"], second["hex"], second["pieces"]) == (250, "9C", ["byte 3 of 3 of U+D55C"])
    assert data["groups"] == [{"tokens": [0, 2], "chars": [0, 1], "byte_span": [0, 3]}]


def test_stream_waits_until_the_syllable_is_whole(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(["-t", "gpt2", "--stream", "한"], capsys)
    assert [s["emitted"] for s in data["stream"]] == ["", "한"]
    assert data["stream"][0]["status"] == "waiting for 1 more byte (2/3)"


def test_table_stream_and_merge_tree(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", "-t", "gpt2", "--stream", "--why", "0", " tokenization"]) == 0
    out = capsys.readouterr().out
    assert "Ġtoken" in out and re.search(r"  merge \d", out) and "├─" in out and "characters complete" in out


def test_special_modes(capsys: pytest.CaptureFixture[str]) -> None:
    special = _json(["-t", "cl100k_base", "--special-mode", "special", "hello <|endoftext|>"], capsys)
    assert [t["id"] for t in special["tokens"]] == [15339, 220, 100257] and special["tokens"][-1]["special"]
    as_text = _json(["-t", "cl100k_base", "--special-mode", "text", "hello <|endoftext|>"], capsys)
    assert len(as_text["tokens"]) > 3 and not any(t["special"] for t in as_text["tokens"])
    assert main(["inspect", "-t", "cl100k_base", "<|endoftext|>"]) == 0  # default: text, with a note
    assert "--special-mode special" in capsys.readouterr().err
    assert main(["inspect", "-t", "cl100k_base", "--special-mode", "refuse", "<|endoftext|>"]) == 2
    err = capsys.readouterr().err
    assert "--special-mode special" in err and "special_mode" not in err


def test_baselines_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(["-t", "characters", "a\x1b\u200d\ud800"], capsys)
    assert [t["id"] for t in data["tokens"]] == [97, 27, 0x200D, 0xFFFD] and data["notes"]
    assert main(["inspect", "-t", "characters", "a\x1b[31m\u202e"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[31m" not in out and "\u202e" not in out
    assert _json(["-t", "gpt2", ""], capsys)["tokens"] == []
    assert main(["inspect", "-t", "gpt2", "--why", "5", "hi"]) == 2
    assert "--why 5" in capsys.readouterr().err
