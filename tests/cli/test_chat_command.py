"""``bpe-explorer chat -t llama3,qwen3.6 FILE.json``: each model's prompt, its count, its control
tokens lit, and whether its format is exact or a documented convention; mistakes are one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.chat import chat_prompt, messages_of
from bpe_engine.registry import load_tokenizer

MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "How many tokens? 한국어"}]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_gives_each_prompt_its_ids_and_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(MESSAGES), encoding="utf-8")
    code, out, _ = run(capsys, "chat", "-t", "llama3,qwen3.6", "--json", str(path))
    records = json.loads(out)
    assert code == 0 and [r["tokenizer"] for r in records] == ["llama3", "qwen3.6"]
    messages = messages_of([(m["role"], m["content"]) for m in MESSAGES])
    for record in records:
        expected = chat_prompt(load_tokenizer(record["tokenizer"]), messages)
        assert record["ids"] == list(expected.ids) and record["count"] == expected.count
    assert records[0]["exact"] is True and records[0]["format"] == "llama3" and records[0]["prompt"].startswith("<|begin_of_text|>")
    assert records[1]["exact"] is False and records[1]["format"] == "chatml"
    assert [t["token"] for t in records[1]["tokens"] if t["special"]] == ["<|im_start|>", "<|im_end|>"] * 2 + ["<|im_start|>"]


def test_readable_output_says_how_exact_each_format_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"messages": MESSAGES}), encoding="utf-8")
    code, out, _ = run(capsys, "chat", "-t", "llama4,qwen2.5", str(path))
    assert code == 0
    assert "Llama 4 (exact: llama-models 0.3.0" in out and "ChatML (Qwen) (documented convention" in out
    assert "<|header_start|>" in out and "<|im_end|>" in out and out.strip().splitlines()[-1].startswith("2 messages; llama4 ")


def test_mistakes_are_one_line_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(MESSAGES), encoding="utf-8")
    code, _, err = run(capsys, "chat", "-t", "gpt2", str(path))
    assert code == 2 and "no chat format is known for 'gpt2'" in err and len(err.strip().splitlines()) == 1
    path.write_text('[{"role": "user", "content": [{"type": "image_url"}]}]', encoding="utf-8")
    code, _, err = run(capsys, "chat", "-t", "llama3", str(path))
    assert code == 2 and "only text parts" in err
