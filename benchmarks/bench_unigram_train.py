"""Unigram training: ``bpe-explorer train --model unigram`` against sentencepiece 0.2.1, whole processes.

    python benchmarks/bench_unigram_train.py [FILE] [--vocab-size 8000]

Runs three processes on the same file and options: ours, sentencepiece with num_threads=2 and with
num_threads=1; prints wall time, peak RSS and the ratios, and checks our pieces, order and scores
(1e-4) equal the one-thread model. It never asserts a time.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "bench" / "en_10mb.txt"


def run(cmd: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--vocab-size", type=int, default=8000)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    ours = run([sys.executable, "-m", "bpe_cli.main", "train", args.file, "--model", "unigram",
                "--vocab-size", str(args.vocab_size), "-o", str(tmp / "ours"), "--name", "m"])
    rows = {"bpe-explorer": ours}
    for threads in (2, 1):
        code = (
            "import sentencepiece as spm; spm.SentencePieceTrainer.train(input=%r, model_prefix=%r, "
            "vocab_size=%d, num_threads=%d, minloglevel=2)" % (args.file, str(tmp / f"sp{threads}"), args.vocab_size, threads)
        )
        rows[f"sentencepiece {threads} thread(s)"] = run([sys.executable, "-c", code])
    base = rows["sentencepiece 2 thread(s)"]
    for name, (wall, rss) in rows.items():
        print(f"{name:28s} {wall:7.2f} s  {rss:8.1f} MiB peak  x{wall / base[0]:.2f} time  x{rss / base[1]:.2f} memory (vs 2 threads)")
    import sentencepiece as spm

    a = spm.SentencePieceProcessor(model_file=str(tmp / "ours" / "m.model"))
    b = spm.SentencePieceProcessor(model_file=str(tmp / "sp1.model"))
    same = a.get_piece_size() == b.get_piece_size() and all(
        a.id_to_piece(i) == b.id_to_piece(i) and abs(a.get_score(i) - b.get_score(i)) <= 1e-4 for i in range(a.get_piece_size())
    )
    print("identical to the 1-thread model:", same)


if __name__ == "__main__":
    main()
