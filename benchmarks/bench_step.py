"""One step of the explorer on a 1 MB corpus: incremental stepper vs. re-segmenting from scratch.

The app must move one merge forward or back in <= 50 ms on a 1 MB corpus. We train byte-level
BPE on the first MB of the bench corpus, build the :class:`~bpe_engine.explore.stepper.Stepper` (as the
training worker does), then time every forward step through the merges, every backward step, and,
as the peer measured in the same run, re-segmenting the corpus from scratch at a few ranks with the
engine's encoder (``BpeTokenizer.with_merge_prefix(k).encode``), which is what a non-incremental
app would do per step.

    python benchmarks/bench_step.py [CORPUS] [--mb 1.0] [--vocab 2256] [--scratch 5]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from _corpora import default_corpus  # noqa: E402  (benchmarks/ is on sys.path)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path)
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--vocab", type=int, default=2256)
    parser.add_argument("--freeze", action=argparse.BooleanOptionalAction, default=True,
                        help="gc.freeze() after building the stepper, as the app does")
    parser.add_argument("--scratch", type=int, default=5, help="how many ranks to re-segment from scratch")
    args = parser.parse_args()

    from bpe_engine.corpus import count_words
    from bpe_engine.explore.stepper import Stepper
    from bpe_engine.pretokenizers import GPT2
    from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining

    path = args.corpus or default_corpus()
    raw = path.read_bytes()[: int(args.mb * 1_000_000)]
    text = raw.decode("utf-8", errors="ignore")
    print(f"corpus {path} first {len(raw) / 1e6:.2f} MB ({len(text):,} chars), vocab {args.vocab}")

    t = time.perf_counter()
    training = BpeTraining(count_words([text], GPT2, byte_level=True, workers=1), BpeTrainerConfig(args.vocab))
    steps = list(training.steps())
    tokenizer = training.tokenizer()
    print(f"trained {len(steps):,} merges in {time.perf_counter() - t:.1f} s")

    t = time.perf_counter()
    stepper = Stepper.from_text(text, GPT2, byte_level=True, merges=steps)
    print(f"stepper built in {(time.perf_counter() - t) * 1000:.0f} ms ({stepper.word_count:,} distinct words)")

    if args.freeze:
        gc.collect()
        gc.freeze()  # what the app does once a stepper arrives: the corpus graph leaves GC scans
    forward: list[float] = []
    forward_cpu: list[float] = []
    slow: list[tuple[float, int, int]] = []
    for _ in range(len(steps)):
        c = time.thread_time()
        t = time.perf_counter()
        change = stepper.forward()
        forward.append(time.perf_counter() - t)
        forward_cpu.append(time.thread_time() - c)
        slow.append((forward[-1], change.rank, change.words_changed))
    backward: list[float] = []
    backward_cpu: list[float] = []
    for _ in range(len(steps)):
        c = time.thread_time()
        t = time.perf_counter()
        stepper.backward()
        backward.append(time.perf_counter() - t)
        backward_cpu.append(time.thread_time() - c)

    ranks = [max(1, round(len(steps) * (i + 1) / (args.scratch + 1))) for i in range(args.scratch)]
    scratch: list[float] = []
    for k in ranks:
        t = time.perf_counter()
        tokenizer.with_merge_prefix(k).encode(text, special_mode="text")
        scratch.append(time.perf_counter() - t)

    def ms(x: float) -> str:
        return f"{x * 1000:.2f} ms"

    print(
        f"forward step: median {ms(statistics.median(forward))}, p99 {ms(pct(forward, 0.99))}, "
        f"max {ms(max(forward))} (first merge {ms(forward[0])})"
    )
    print(
        f"forward step CPU time (excludes waiting for a core on a shared machine): median "
        f"{ms(statistics.median(forward_cpu))}, p99 {ms(pct(forward_cpu, 0.99))}, max {ms(max(forward_cpu))}"
    )
    print(
        f"backward step: median {ms(statistics.median(backward))}, p99 {ms(pct(backward, 0.99))}, "
        f"max {ms(max(backward))}; CPU p99 {ms(pct(backward_cpu, 0.99))}, max {ms(max(backward_cpu))}"
    )
    worst = sorted(slow, reverse=True)[:3]
    print("slowest forward steps: " + ", ".join(f"rank {r + 1} ({w:,} words) {ms(x)}" for x, r, w in worst))
    print(f"re-segment from scratch (peer) at ranks {ranks}: median {ms(statistics.median(scratch))}")
    print(
        f"ratio scratch / incremental: median step {statistics.median(scratch) / statistics.median(forward):,.0f}x, "
        f"worst step {statistics.median(scratch) / max(forward):,.1f}x; budget 50 ms: "
        f"{'met' if max(max(forward), max(backward)) <= 0.05 else 'MISSED'} by the worst step (wall), "
        f"{'met' if max(max(forward_cpu), max(backward_cpu)) <= 0.05 else 'MISSED'} by the worst step (CPU)"
    )


if __name__ == "__main__":
    main()
