"""The naive recount-every-merge trainer (the tutorial algorithm) vs the incremental one.

Both start from the same word counts (counted once, not timed) of the first MB of a corpus and
make the same number of merges; the speed-up is naive time / incremental time, and the merge
lists must be identical.

    python benchmarks/bench_naive_trainer.py [CORPUS] [--bytes 1000000] [--merges 500] [--tie-break hf]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from _corpora import default_corpus  # noqa: E402  (benchmarks/ is on sys.path)

from bpe_engine.choices import TIE_BREAKS, values  # noqa: E402
from bpe_engine.corpus import count_words  # noqa: E402
from bpe_engine.pretokenizers import GPT2  # noqa: E402
from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining  # noqa: E402
from bpe_engine.training.naive_bpe import train_naive  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path)
    parser.add_argument("--bytes", type=int, default=1_000_000)
    parser.add_argument("--merges", type=int, default=500)
    parser.add_argument("--tie-break", choices=values(TIE_BREAKS), default="hf")
    args = parser.parse_args()
    corpus = args.corpus or default_corpus()
    with open(corpus, "rb") as handle:
        data = handle.read(args.bytes)
    counts = count_words([data.decode("utf-8", "ignore")], GPT2, byte_level=True, workers=1)
    config = BpeTrainerConfig(vocab_size=256 + args.merges, pre_tokenizer=GPT2, tie_break=args.tie_break)
    print(f"{corpus}: first {len(data):,} bytes, {len(counts):,} distinct words, {args.merges} merges, "
          f"tie-break {args.tie_break}")

    start = time.perf_counter()
    training = BpeTraining(counts, config)
    fast = list(training.steps())
    t_fast = time.perf_counter() - start

    start = time.perf_counter()
    slow = train_naive(counts, config)
    t_slow = time.perf_counter() - start

    print(f"naive       {t_slow:8.2f} s")
    print(f"incremental {t_fast:8.2f} s")
    print(f"speed-up    {t_slow / t_fast:8.1f}x; merge steps {'identical' if fast == slow else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
