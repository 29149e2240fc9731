"""Extend cl100k_base by N merges on Korean vs our own ``train`` of the same N merges from scratch.

Both are whole ``bpe-explorer`` processes as a user runs them -- start-up, streamed counting, the
merges, writing every file -- timed from outside with their peak resident memory (``wait4``):

* ``extend cl100k_base CORPUS --add N -o DIR``: the corpus cut with cl100k's regex, each word
  started as cl100k's tokens (tiktoken's core), then N merges of ``train``'s loop; it also writes
  100,000 + N tokens in four formats and audits both vocabularies for its checks;
* ``train CORPUS --vocab-size 256+N --pre-tokenizer cl100k -o DIR``: the same N merges from bytes.

The ratio is extend / train, measured in the same run, alternating, best of ``--repeat``. The
second line is in-process (no start-up, no files): counting, the start (encoding each distinct
word with the base) and the merge loop, for extend only.

    python benchmarks/bench_extend.py [CORPUS] [--add 10000] [--bytes N] [--repeat 1]

Default corpus: ../shared/corpora/bench/ko_all.txt; ``--bytes`` takes a prefix (to run it small).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from _corpora import default_corpus  # noqa: E402  (benchmarks/ is on sys.path)


def run(argv: list[str]) -> tuple[float, int]:
    """Wall seconds and peak resident KiB of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode("utf-8", "replace")
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv[:4])} ... failed: {err[-500:]}")
    return wall, usage.ru_maxrss


def in_process(corpus: Path, add: int) -> str:
    from bpe_engine.corpus import count_files
    from bpe_engine.registry import load_tokenizer
    from bpe_engine.surgery import ExtendConfig, Extension, bpe_base

    start = time.perf_counter()
    base = bpe_base(load_tokenizer("cl100k_base"))
    counts = count_files([corpus], base.pre_tokenizer, base.specials, byte_level=True, workers=2)
    counted = time.perf_counter()
    run_ = Extension(base, counts, ExtendConfig(add=add))
    started = time.perf_counter()
    done = sum(1 for _ in run_.steps())
    end = time.perf_counter()
    return (
        f"in-process extend: count {counted - start:.2f} s ({len(counts):,} distinct words), start "
        f"{started - counted:.2f} s, {done:,} merges {end - started:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path)
    parser.add_argument("--add", type=int, default=10_000)
    parser.add_argument("--bytes", type=int, default=None, help="use only the first N bytes of the corpus")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    corpus = args.corpus or default_corpus("corpora/bench/ko_all.txt")
    exe = [sys.executable, "-m", "bpe_cli.main"] if not (Path(sys.executable).parent / "bpe-explorer").exists() else [
        str(Path(sys.executable).parent / "bpe-explorer")
    ]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        if args.bytes:
            cut = root / "corpus.txt"
            data = corpus.read_bytes()[: args.bytes]
            cut.write_bytes(data[: len(data.decode("utf-8", "ignore").encode("utf-8"))])
            corpus = cut
        print(f"{corpus}: {corpus.stat().st_size:,} bytes, {args.add:,} merges")
        best: dict[str, tuple[float, int]] = {}
        for rep in range(args.repeat):
            for label, argv in (
                ("extend", [*exe, "extend", "cl100k_base", str(corpus), "--add", str(args.add), "-o", str(root / f"e{rep}")]),
                ("train", [*exe, "train", str(corpus), "--vocab-size", str(256 + args.add), "--pre-tokenizer", "cl100k", "-o", str(root / f"t{rep}")]),
            ):
                wall, peak = run(argv)
                print(f"  run {rep + 1} {label:6}: {wall:7.2f} s, {peak / 1024:6.0f} MiB")
                if label not in best or wall < best[label][0]:
                    best[label] = (wall, peak)
        (ew, em), (tw, tm) = best["extend"], best["train"]
        print(f"extend cl100k_base +{args.add:,}: {ew:.2f} s, {em / 1024:.0f} MiB | train {args.add:,} merges from scratch: "
              f"{tw:.2f} s, {tm / 1024:.0f} MiB | ratio wall {ew / tw:.2f}x, memory {em / tm:.2f}x")
        print(in_process(corpus, args.add))


if __name__ == "__main__":
    main()
