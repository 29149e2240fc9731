"""``python -m bpe_cli.main``: real exit statuses and one-line errors, as a shell sees them."""

from __future__ import annotations

import json
import os
import re
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


def test_components_nested_490_deep_are_one_line_naming_the_json_path(tmp_path):
    """A 490-deep Sequence pre-tokenizer said "invalid regex"; a 350-deep normalizer was a
    RecursionError of 2,977 lines. Parsed in a fresh process, as a user's command parses it: 490
    levels of components are 980 of JSON, which Python's reader may or may not follow depending
    on its stack -- if not, the one line says how deep and where."""
    vocab = {"a": 0, "b": 1, "[UNK]": 2}
    for stage, key, leaf, depth in (("pre_tokenizer", "pretokenizers", '{"type": "Whitespace"}', 490), ("normalizer", "normalizers", '{"type": "NFC"}', 350)):
        component = f'{{"type": "Sequence", "{key}": [' * depth + leaf + "]}" * depth
        model = json.dumps({"type": "BPE", "vocab": vocab, "merges": [], "unk_token": "[UNK]"})
        path = tmp_path / f"{stage}.json"
        path.write_text(f'{{"version": "1.0", "model": {model}, "{stage}": {component}}}', encoding="utf-8")
        done = cli("encode", "-t", str(path), "ab")
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr[:2000]
        named = f"{stage}.{key}[0]…" in done.stderr and "nested 33 deep; bpe-explorer reads at most 32" in done.stderr
        assert named or re.search(r"json, line 1: invalid JSON: nested 98\d levels deep", done.stderr), done.stderr
