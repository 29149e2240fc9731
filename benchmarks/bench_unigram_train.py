"""Unigram training: ``bpe-explorer train --model unigram`` against sentencepiece 0.2.1, whole processes.

    python benchmarks/bench_unigram_train.py [FILE] [--vocab-size 8000]

Runs three processes on the same file and options: ours (the installed ``bpe-explorer`` script),
sentencepiece with num_threads=2 and with num_threads=1 (``python -c``); prints wall time, peak RSS
(each process's own, from ``wait4``) and the ratios to the 2-thread run, and checks our pieces,
order and scores (1e-4) and the ids of the first lines equal the one-thread model. It never asserts
a time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "bench" / "en_10mb.txt"


def run(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one process (``wait4`` gives that child's own rusage;
    ``RUSAGE_CHILDREN`` would be the largest of all children so far)."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode:
        raise SystemExit(f"{cmd[0]} failed ({proc.returncode}): {err[-2000:]}")
    return wall, usage.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--vocab-size", type=int, default=8000)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    cli = shutil.which("bpe-explorer", path=os.path.dirname(sys.executable)) or shutil.which("bpe-explorer")
    if cli is None:
        raise SystemExit("bpe-explorer is not installed (pip install -e .)")
    ours = run([cli, "train", args.file, "--model", "unigram", "--vocab-size", str(args.vocab_size), "-o", str(tmp / "ours"), "--name", "m"])
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
    with open(args.file, encoding="utf-8", errors="replace") as handle:
        lines = [line.rstrip("\n") for _, line in zip(range(2000), handle)]
    same_ids = all(a.encode(line) == b.encode(line) for line in lines)
    print(f"identical to the 1-thread model: {same} (pieces, order, scores within 1e-4); same ids on the first {len(lines)} lines: {same_ids}")


if __name__ == "__main__":
    main()
