"""Encode throughput against tiktoken, measured in the same process on the same ranks.

For each file: tiktoken's ``encode_ordinary`` built from the same verified ranks, our pure-Python
encoder with a cold piece cache (as a fresh process sees it) and warm (second pass, as the app
sees repeated text), and our tiktoken fast path (``BpeTokenizer`` backend="tiktoken"). Prints MB/s
and ratios against tiktoken and checks that every variant returns identical ids.

    python benchmarks/bench_encode.py [--tokenizer cl100k_base] [--repeat 5] [FILE ...]

Goals: pure Python <= 2.5x tiktoken's time on English, <= 3x on Korean; fast path
>= 0.9x tiktoken's throughput. The machine is shared, so the variants run interleaved in each
round and each keeps its best CPU time (``time.process_time``) over ``--repeat`` rounds.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tiktoken  # noqa: E402

from bpe_engine.bpe.model import BpeTokenizer  # noqa: E402
from bpe_engine.catalog.openai import (  # noqa: E402
    load_reference,
    reference_pre_tokenizer,
    reference_ranks,
    reference_special_tokens,
)

DEFAULT_FILES = [
    Path(__file__).resolve().parents[2] / "shared/corpora/bench/en_10mb.txt",
    Path(__file__).resolve().parents[2] / "shared/corpora/bench/ko_all.txt",
]


def cpu_time(fn: Callable[[], list[int]]) -> tuple[float, list[int]]:
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--tokenizer", default="cl100k_base")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    name = args.tokenizer
    theirs = tiktoken.Encoding(
        name,
        pat_str=reference_pre_tokenizer(name).pattern,
        mergeable_ranks=reference_ranks(name),
        special_tokens=reference_special_tokens(name),
    )
    fast = load_reference(name).with_backend("tiktoken")

    def fresh_python() -> BpeTokenizer:  # a new piece cache each run: no help from earlier runs
        return BpeTokenizer.from_ranks(
            name=name,
            mergeable_ranks=reference_ranks(name),
            pre_tokenizer=reference_pre_tokenizer(name),
            special_tokens=reference_special_tokens(name),
            backend="python",
        )

    print(f"tokenizer {name}; best CPU time of {args.repeat} interleaved rounds; MB = 10^6 bytes")
    for path in args.files:
        text = path.read_text(encoding="utf-8")
        mb = len(text.encode("utf-8")) / 1e6
        best: dict[str, float] = {}
        ids: dict[str, list[int]] = {}
        for _ in range(args.repeat):
            python = fresh_python()
            runs = {
                "tiktoken": lambda: theirs.encode_ordinary(text),
                "cold": lambda: python.encode_ordinary(text),
                "warm": lambda: python.encode_ordinary(text),
                "fast": lambda: fast.encode_ordinary(text),
            }
            for key, fn in runs.items():
                seconds, ids[key] = cpu_time(fn)
                best[key] = min(best.get(key, float("inf")), seconds)
        same = all(v == ids["tiktoken"] for v in ids.values())
        t_tt = best["tiktoken"]
        print(f"\n{path.name}: {mb:.2f} MB, {len(ids['tiktoken']):,} tokens, ids identical: {same}")
        print(f"  tiktoken encode_ordinary    {t_tt:7.3f} s  {mb / t_tt:6.2f} MB/s")
        for key, label in (("cold", "pure Python, cold cache"), ("warm", "pure Python, warm cache")):
            t = best[key]
            print(f"  {label:<26}  {t:7.3f} s  {mb / t:6.2f} MB/s  time {t / t_tt:.2f}x tiktoken's")
        t = best["fast"]
        print(f"  {'our tiktoken fast path':<26}  {t:7.3f} s  {mb / t:6.2f} MB/s  throughput {t_tt / t:.2f}x tiktoken's")
        if not same:
            print("  MISMATCH: ids differ", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
