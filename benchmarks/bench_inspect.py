"""``bpe-explorer inspect`` on growing prefixes of a corpus: time and peak memory per megabyte.

``inspect -t gpt2 - < 2.4 MB`` used to run for more than nine minutes at 4 GB (one rich table of
600,000 rows); it must be linear in its input and bounded in memory. Each size runs in a fresh
process (``bpe-explorer inspect ... > /dev/null``, as a user runs it) and is reported next to its
peer measured in the same run: ``bpe-explorer encode --json`` of the same text, which encodes the
same way and prints one line per token's worth of JSON. Linear means seconds/MB stays flat as the
size grows; bounded means peak RSS grows with the encoding (ids and spans), not with the printout.

    python benchmarks/bench_inspect.py [--tokenizer gpt2] [--sizes 120000,600000,2400000] [FILE]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _corpora import REPO, default_corpus


def run(argv: list[str], data: bytes) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one CLI run fed ``data`` on stdin, output discarded."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    with tempfile.TemporaryFile() as stdin:
        stdin.write(data)
        stdin.seek(0)
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "bpe_cli.main", *argv], stdin=stdin, stdout=subprocess.DEVNULL, env=env, check=True
        )
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", type=Path, default=None)
    parser.add_argument("--tokenizer", default="gpt2")
    parser.add_argument("--sizes", default="120000,600000,2400000", help="prefix sizes in bytes")
    args = parser.parse_args()
    corpus = (args.file or default_corpus()).read_bytes()
    print(f"inspect -t {args.tokenizer} (fresh process per run; load {os.getloadavg()[0]:.1f})")
    print(f"{'bytes':>10}  {'inspect s':>9}  {'s/MB':>6}  {'peak MiB':>8}  {'encode --json s':>15}  {'ratio':>6}")
    for size in (int(s) for s in args.sizes.split(",")):
        data = corpus[:size].decode("utf-8", "ignore").encode("utf-8")
        seconds, peak = run(["inspect", "-t", args.tokenizer, "-"], data)
        peer, _ = run(["encode", "--json", "-t", args.tokenizer, "-"], data)
        mb = len(data) / 1e6
        print(f"{len(data):>10,}  {seconds:>9.2f}  {seconds / mb:>6.1f}  {peak:>8.0f}  {peer:>15.2f}  {seconds / peer:>6.1f}x")
    print("peak MiB is the largest child so far (ru_maxrss is a high-water mark across runs)")


if __name__ == "__main__":
    main()
