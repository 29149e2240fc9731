"""``python -m bpe_cli.main``: real exit statuses and one-line errors, as a shell sees them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cli(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "bpe_cli.main", *argv], input=stdin, capture_output=True, text=True,
        env=env, timeout=120, encoding="utf-8",
    )


def test_encode_json_exit_0():
    done = cli("encode", "--tokenizer", "gpt2", "--json", "hello world")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["ids"] == [31373, 995] and [t["text"] for t in data["tokens"]] == ["hello", " world"]


def test_user_error_exit_2_one_line(tmp_path):
    done = cli("encode", "--tokenizer", str(tmp_path / "missing"), "hi")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("bpe-explorer: error: unknown tokenizer")
    assert "Traceback" not in done.stderr


def test_malformed_file_exit_2_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.tiktoken"
    bad.write_text("YQ== 0\n!!! 1\n", encoding="utf-8")
    done = cli("encode", "-t", str(bad), "a")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{bad}, line 2: bad base64" in done.stderr


def test_argparse_error_exit_2():
    done = cli("encode", "--backend", "rust", "-t", "gpt2", "x")
    assert done.returncode == 2 and "invalid choice" in done.stderr


def test_train_then_decode_pipeline(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("low lower lowest newer newest wider widest\n" * 30, encoding="utf-8")
    done = cli("train", str(corpus), "--vocab-size", "280", "--output", str(tmp_path / "tok"))
    assert done.returncode == 0, done.stderr
    encoded = cli("encode", "-t", str(tmp_path / "tok"), "--json", "-", stdin="lowest widest")
    decoded = cli("decode", "-n", "-t", str(tmp_path / "tok"), "-", stdin=encoded.stdout)
    assert decoded.returncode == 0 and decoded.stdout == "lowest widest"
