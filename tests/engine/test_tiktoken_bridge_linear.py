"""The tiktoken-equivalence proof (merge_list_problem) is linear in the vocabulary's
bytes. It sliced every cut of every token, so a 5,000,000-byte token (what a 5 MB file of one
repeated character trains) made ``encode`` hang; now long tokens keep the Python encoder and the
proof's work is bounded by a budget proportional to the vocabulary."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_engine.bpe import tiktoken_bridge
from bpe_engine.pretokenizers import GPT2
from bpe_engine.training.bpe import BpeTrainerConfig, train

ROOT = Path(__file__).resolve().parents[2]

LONG_TOKEN_MODEL = """
import sys
from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.core.byte_table import BYTE_TO_CHAR
from bpe_engine.pretokenizers import GPT2

target = int(sys.argv[1])
vocab = {BYTE_TO_CHAR[b]: b for b in range(256)}
merges, size, powers = [], 1, [1]
while size * 2 <= target:  # a + a, aa + aa, ...: the doubling chain BPE trains on one repeated character
    merges.append(("a" * size, "a" * size)); size *= 2; powers.append(size)
    vocab["a" * size] = len(vocab)
for power in reversed(powers[:-1]):  # then up to exactly ``target`` bytes
    if size + power <= target:
        merges.append(("a" * size, "a" * power)); size += power
        vocab["a" * size] = len(vocab)
assert size == target
tok = BpeTokenizer(name="long", vocab=vocab, merges=merges, pre_tokenizer=GPT2, byte_level=True)
print(tok.tiktoken_status()[1])
print(tok.encode("a" * 1000 + " hi") == tok.with_backend("python").encode("a" * 1000 + " hi"))
"""


def test_a_5_000_000_byte_token_does_not_hang_the_proof() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", LONG_TOKEN_MODEL, "5000000"], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    reason, same = done.stdout.splitlines()
    assert "5,000,000 bytes" in reason and "Python encoder" in reason and same == "True"


def gpt2_like():
    config = BpeTrainerConfig(vocab_size=400, byte_level=True, pre_tokenizer=GPT2)
    return train(["the cat sat on the mat with the hat " * 20], config).tokenizer


def test_the_proof_still_accepts_a_trained_merge_list() -> None:
    assert tiktoken_bridge.why_not_tiktoken(gpt2_like()) is None


def test_the_proofs_work_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the budget taken away, the proof gives up (and the model keeps the Python encoder)
    instead of working on: the work it may do is a fixed multiple of the vocabulary's bytes."""
    monkeypatch.setattr(tiktoken_bridge, "WORK_PER_BYTE", 0)
    monkeypatch.setattr(tiktoken_bridge, "WORK_BASE", 10)
    tok = gpt2_like()
    assert tiktoken_bridge.why_not_tiktoken(tok) == tiktoken_bridge._TOO_COSTLY
    assert tok.encode("the cat") == tok.with_backend("python").encode("the cat")
