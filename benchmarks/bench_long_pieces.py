"""Catastrophically repetitive pieces: time grows ~n log n, not n^2 (the goal: doubling <= ~2.3x).

Each row encodes one giant pre-tokenized piece (``"x" * n`` is a single letter run for every
pattern, ``"^" * n`` a single punctuation run) with the pure-Python encoder and prints the time
ratio to the previous, half-as-long row. For comparison it also runs the quadratic list
algorithm on the smaller sizes (``--list-up-to``), which is what the heap replaces above
``LONG_PIECE`` symbols, and tiktoken on the same ranks.

    python benchmarks/bench_long_pieces.py [--tokenizer cl100k_base] [--max 1000000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tiktoken  # noqa: E402

from bpe_engine.bpe import encode as bpe_encode  # noqa: E402
from bpe_engine.catalog.openai import (  # noqa: E402
    load_reference,
    reference_pre_tokenizer,
    reference_ranks,
)


def cpu(fn) -> float:  # type: ignore[no-untyped-def]
    start = time.process_time()
    fn()
    return time.process_time() - start


def list_algorithm(data: bytes, ranks: dict[bytes, int]) -> list[int]:
    """The short-piece list algorithm forced onto a long piece (quadratic), for contrast."""
    saved = bpe_encode.LONG_PIECE
    bpe_encode.LONG_PIECE = len(data) + 1
    try:
        return bpe_encode.merge_byte_ranks(data, ranks)
    finally:
        bpe_encode.LONG_PIECE = saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokenizer", default="cl100k_base")
    parser.add_argument("--max", type=int, default=1_000_000, help="largest piece length (chars)")
    parser.add_argument("--start", type=int, default=15_625)
    parser.add_argument("--list-up-to", type=int, default=32_000)
    args = parser.parse_args(argv)

    name = args.tokenizer
    ranks = reference_ranks(name)
    ours = load_reference(name).with_backend("python")
    theirs = tiktoken.Encoding(name, pat_str=reference_pre_tokenizer(name).pattern, mergeable_ranks=ranks, special_tokens={})
    print(f"tokenizer {name}; CPU seconds; 'x2' = time / time at half the length (goal <= ~2.3)")
    print(f"{'piece':>8} {'n':>9} {'ours s':>8} {'x2':>5} {'list s':>8} {'x2':>5} {'tiktoken s':>10} {'x2':>5}")
    for char in ("x", "^"):
        prev: dict[str, float] = {}
        n = args.start
        while n <= args.max:
            text = char * n
            ours._cache.clear()
            t_ours = cpu(lambda: ours.encode_ordinary(text))  # noqa: B023
            t_list = cpu(lambda: list_algorithm(text.encode(), ranks)) if n <= args.list_up_to else None  # noqa: B023
            t_tt = cpu(lambda: theirs.encode_ordinary(text))  # noqa: B023
            assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)

            def ratio(key: str, value: float | None) -> str:
                if value is None:
                    return "    -"
                old = prev.get(key)
                prev[key] = value
                return f"{value / old:5.2f}" if old else "    -"

            list_s = f"{t_list:8.3f}" if t_list is not None else "       -"
            print(
                f"{char + ' * n':>8} {n:>9,} {t_ours:8.3f} {ratio('ours', t_ours)} {list_s} {ratio('list', t_list)}"
                f" {t_tt:10.3f} {ratio('tt', t_tt)}"
            )
            n *= 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
