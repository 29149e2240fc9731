"""The BPE variants' training time against our BPE trainer's, same corpus and size, one run.

Usage: python benchmarks/bench_variants.py [CORPUS] [--vocab-size 8000] [--bytes N] [--repeat 1]

Each trainer runs in its own fresh interpreter on the first 90% of the corpus (``--bytes`` cuts it
first), and its wall time is measured around the whole process (reading, counting, training); the
training call alone is a second figure. Each variant is set beside the BPE run of its own
conventions: PickyBPE (words cut at whitespace with ``▁``, characters as atoms) beside character-level
BPE with the ``whitespace`` pre-tokenizer, Scaffold-BPE and SuperBPE (byte-level, ``gpt2``) beside
byte-level BPE with ``gpt2``. The goal is at most 1.5x the peer. Every model then encodes the held-out
last 10%: tokens per byte (lower is better), and how many tokens each variant removed, scaffolded
or restored.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _corpora import default_corpus

ROOT = Path(__file__).resolve().parent.parent
RUNS = ("bpe-gpt2", "bpe-whitespace", "picky", "scaffold", "scaffold-tktkt", "superbpe")
PEER = {"picky": "bpe-whitespace", "scaffold": "bpe-gpt2", "scaffold-tktkt": "bpe-gpt2", "superbpe": "bpe-gpt2"}


def child(which: str, path: str, vocab_size: int, limit: int | None) -> dict:
    sys.path.insert(0, str(ROOT))
    from bpe_engine.pretokenizers import GPT2, WHITESPACE
    from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining
    from bpe_engine.training.picky import PickyConfig, PickyTraining
    from bpe_engine.training.scaffold import ScaffoldConfig, ScaffoldTraining
    from bpe_engine.training.superbpe import SuperBpeConfig, SuperBpeTraining

    text = Path(path).read_text(encoding="utf-8")[: limit or None]
    cut = int(len(text) * 0.9)
    train, held = text[:cut], text[cut:]
    start = time.perf_counter()
    gpt2 = BpeTrainerConfig(vocab_size=vocab_size, pre_tokenizer=GPT2)
    training: object
    if which == "bpe-gpt2":
        training = BpeTraining([train], gpt2)
    elif which == "bpe-whitespace":
        training = BpeTraining([train], BpeTrainerConfig(vocab_size=vocab_size, byte_level=False, pre_tokenizer=WHITESPACE, unk_token="[UNK]"))
    elif which == "picky":
        training = PickyTraining([train], PickyConfig(vocab_size=vocab_size))
    elif which.startswith("scaffold"):
        training = ScaffoldTraining([train], ScaffoldConfig(gpt2, variant="tktkt" if which.endswith("tktkt") else "paper"))
    else:
        training = SuperBpeTraining([train], SuperBpeConfig(vocab_size=vocab_size, transition=int(vocab_size * 0.9) - 256))
    kinds: dict[str, int] = {}
    for step in training.steps():  # type: ignore[attr-defined]
        kind = getattr(step, "kind", "merge")
        kinds[kind] = kinds.get(kind, 0) + 1
    trained = time.perf_counter() - start
    tokenizer = training.tokenizer()  # type: ignore[attr-defined]
    tokens = len(tokenizer.encode(held))
    return {"train_s": trained, "kinds": kinds, "vocab": tokenizer.vocab_size, "tokens_per_byte": tokens / len(held.encode("utf-8"))}


def measure(which: str, path: str, vocab_size: int, limit: int | None) -> tuple[float, dict]:
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, __file__, path, "--child", which, "--vocab-size", str(vocab_size), *(["--bytes", str(limit)] if limit else [])],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )
    return time.perf_counter() - start, json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=None)
    parser.add_argument("--vocab-size", type=int, default=8000)
    parser.add_argument("--bytes", type=int, default=None, help="use only the corpus's first N characters")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--child", choices=RUNS)
    args = parser.parse_args()
    path = args.corpus or str(default_corpus())
    if args.child:
        print(json.dumps(child(args.child, path, args.vocab_size, args.bytes)))
        return 0
    walls: dict[str, list[float]] = {r: [] for r in RUNS}
    results: dict[str, dict] = {}
    for _ in range(args.repeat):
        for which in RUNS:  # interleaved, so a busy moment of the machine hits every run alike
            wall, result = measure(which, path, args.vocab_size, args.bytes)
            walls[which].append(wall)
            results[which] = result
    print(f"{Path(path).name}{f' (first {args.bytes:,} characters)' if args.bytes else ''}, vocabulary {args.vocab_size:,}, "
          f"median of {args.repeat} whole-process run(s); held-out: the last 10%")
    for which in RUNS:
        wall = statistics.median(walls[which])
        r = results[which]
        peer = PEER.get(which)
        ratio = f"  {wall / statistics.median(walls[peer]):.2f}x {peer}" if peer else ""
        events = ", ".join(f"{n:,} {k}" for k, n in sorted(r["kinds"].items()))
        print(f"  {which:15} {wall:7.2f} s whole process ({r['train_s']:.2f} s training){ratio}; "
              f"{r['tokens_per_byte']:.4f} tokens/byte; {r['vocab']:,} tokens; {events}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
