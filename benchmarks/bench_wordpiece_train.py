"""WordPiece training time: our trainer next to HF's WordPieceTrainer, same run.

Usage: python benchmarks/bench_wordpiece_train.py [CORPUS] [--vocab-size 8000] [--repeat 1] [--merge-by count|score]

Each trainer runs in its own subprocess (a fresh interpreter, so neither warms the other's caches),
on the same file, with the same settings (lowercasing BERT front end, min_frequency 2,
limit_alphabet 1000, BERT's five special tokens). Wall time is measured by the parent around the
whole subprocess and also reported for the training call alone.

``--merge-by count`` (the default) is HF's algorithm: the vocabularies hold the same tokens except
where HF's hash-ordered ``##c`` ids broke a tie at the end differently (tokenizers#1794; the tests
prove the rest exact). ``--merge-by score`` merges by count(ab) / (count(a)·count(b)) and is not
expected to match. The output says how much the two vocabularies overlap.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "bench" / "ko_all.txt"
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def run_ours(path: str, vocab_size: int, merge_by: str) -> dict:
    sys.path.insert(0, str(ROOT))
    from bpe_engine.training.wordpiece import WordPieceTrainerConfig, WordPieceTraining, count_bert_words

    start = time.perf_counter()
    text = Path(path).read_text(encoding="utf-8")
    counts = count_bert_words([text])
    counted = time.perf_counter()
    config = WordPieceTrainerConfig(vocab_size=vocab_size, min_frequency=2, limit_alphabet=1000, merge_by=merge_by)  # type: ignore[arg-type]
    training = WordPieceTraining(counts, config)
    merges = sum(1 for _ in training.steps())
    end = time.perf_counter()
    return {"train_s": end - start, "count_s": counted - start, "merges": merges, "vocab": sorted(training.vocab)}


def run_hf(path: str, vocab_size: int, merge_by: str) -> dict:
    from tokenizers import BertWordPieceTokenizer

    start = time.perf_counter()
    tok = BertWordPieceTokenizer(lowercase=True)
    tok.train([path], vocab_size=vocab_size, min_frequency=2, limit_alphabet=1000, special_tokens=SPECIALS, show_progress=False)
    end = time.perf_counter()
    return {"train_s": end - start, "vocab": sorted(tok.get_vocab())}


def child(which: str, path: str, vocab_size: int, merge_by: str) -> None:
    result = (run_ours if which == "ours" else run_hf)(path, vocab_size, merge_by)
    result["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(result))


def measure(which: str, path: str, vocab_size: int, merge_by: str) -> tuple[float, dict]:
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, __file__, "--child", which, path, "--vocab-size", str(vocab_size), "--merge-by", merge_by],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )
    wall = time.perf_counter() - start
    return wall, json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=str(DEFAULT_CORPUS))
    parser.add_argument("--vocab-size", type=int, default=8000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--merge-by", choices=("count", "score"), default="count")
    parser.add_argument("--child", choices=("ours", "hf"))
    args = parser.parse_args()
    if args.child:
        child(args.child, args.corpus, args.vocab_size, args.merge_by)
        return 0
    size = os.path.getsize(args.corpus)
    print(f"corpus {args.corpus} ({size:,} bytes), vocab_size {args.vocab_size}, "
          f"{os.cpu_count()} CPUs, RAYON_NUM_THREADS={os.environ.get('RAYON_NUM_THREADS', 'default')}")
    walls: dict[str, list[float]] = {"ours": [], "hf": []}
    calls: dict[str, list[float]] = {"ours": [], "hf": []}
    results: dict[str, dict] = {}
    for _ in range(args.repeat):
        for which in ("hf", "ours"):
            wall, result = measure(which, args.corpus, args.vocab_size, args.merge_by)
            walls[which].append(wall)
            calls[which].append(result["train_s"])
            results[which] = result
    ours, hf = results["ours"], results["hf"]
    ours["train_s"], hf["train_s"] = statistics.median(calls["ours"]), statistics.median(calls["hf"])
    w_ours, w_hf = statistics.median(walls["ours"]), statistics.median(walls["hf"])
    print(f"ours (merge by {args.merge_by}, pure Python): wall {w_ours:6.2f} s  (count {ours['count_s']:.2f} s, "
          f"count+train {ours['train_s']:.2f} s, {ours['merges']} merges, {len(ours['vocab'])} tokens, peak {ours['peak_mib']:.0f} MiB)")
    print(f"HF WordPieceTrainer (Rust):          wall {w_hf:6.2f} s  (train {hf['train_s']:.2f} s, "
          f"{len(hf['vocab'])} tokens, peak {hf['peak_mib']:.0f} MiB)")
    print(f"ratio ours / HF: wall {w_ours / w_hf:.1f}x, training call {ours['train_s'] / hf['train_s']:.1f}x  "
          f"(median of {args.repeat} run(s) each)")
    shared = len(set(ours["vocab"]) & set(hf["vocab"]))
    expected = ("equal but for ties HF's hash-ordered ##c ids broke differently" if args.merge_by == "count"
                else "not expected to match: the score rule is not HF's")
    print(f"vocabularies share {shared} of {len(ours['vocab'])} tokens ({expected})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
