"""The explorer's responsiveness, headless (``App.run_test``), each figure beside a peer.

1. First paint: from constructing the app to its first screen, vs. a minimal Textual app
   (Header + Static + Footer) measured in the same run.
2. Frame gaps: a 20 ms timer inside the app records the longest gap between its ticks, first
   while the app is idle and then while it trains on 1 MB (the worker thread shares the GIL
   with the UI loop). The idle app is the peer.
3. One step on the 1 MB corpus as the user sees it: ``n`` pressed, stepper moved, corpus view,
   derivation and merge list redrawn (``action_next`` + ``pilot.pause()``); the key handler
   alone, and the cost of ``pilot.pause()`` on the idle app as the peer (its polling overhead).

    python benchmarks/bench_tui.py [CORPUS] [--mb 1.0] [--vocab 1256] [--idle 2.0]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from _corpora import default_corpus  # noqa: E402  (benchmarks/ is on sys.path)


class GapMeter:
    """Ticks every 20 ms on the UI loop; a long gap is a frame the user would have waited for."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.gaps: list[float] = []

    def tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self.last)
        self.last = now

    def reset(self) -> None:
        self.last = time.perf_counter()
        self.gaps = []

    def summary(self) -> str:
        gaps = sorted(self.gaps) or [0.0]
        p99 = gaps[min(len(gaps) - 1, int(0.99 * len(gaps)))]
        return f"max gap {max(gaps) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, median {statistics.median(gaps) * 1000:.0f} ms"


async def first_paint(size: tuple[int, int]) -> tuple[float, float]:
    from textual.app import App, ComposeResult
    from textual.widgets import Footer, Header, Static

    from tui.launch import build_app

    class Minimal(App[None]):
        def compose(self) -> ComposeResult:
            yield Header()
            yield Static("hello")
            yield Footer()

    start = time.perf_counter()
    async with Minimal().run_test(size=size):
        peer = time.perf_counter() - start
    start = time.perf_counter()
    async with build_app([]).run_test(size=size):
        ours = time.perf_counter() - start
    return ours, peer


async def training_gaps(text: str, vocab: int, idle: float, size: tuple[int, int]) -> None:
    from tui.app import ExplorerApp

    app = ExplorerApp(text, source="bench")
    meter = GapMeter()
    async with app.run_test(size=size) as pilot:
        app.query_one("#vocab").value = str(vocab)
        for worker in list(app.workers):
            await worker.wait()
        await pilot.pause()
        app.set_interval(0.02, meter.tick)
        meter.reset()
        await asyncio.sleep(idle)
        idle_summary = meter.summary()
        meter.reset()
        start = time.perf_counter()
        app.action_train()
        while app.training:
            await asyncio.sleep(0.05)
        seconds = time.perf_counter() - start
        train_summary = meter.summary()
        print(f"frame gaps idle (peer): {idle_summary}")
        print(f"frame gaps while training {len(text) / 1e6:.1f} MB to {vocab}: {train_summary} ({seconds:.1f} s run)")
        app.query_one("#merges").focus()
        idle_pauses = []
        for _ in range(10):
            t = time.perf_counter()
            await pilot.pause()
            idle_pauses.append(time.perf_counter() - t)
        step_times = []
        handler_times = []
        for _ in range(40):
            t = time.perf_counter()
            app.action_next()
            handler_times.append(time.perf_counter() - t)
            await pilot.pause()
            step_times.append(time.perf_counter() - t)
        back_times = []
        for _ in range(40):
            t = time.perf_counter()
            app.action_prev()
            await pilot.pause()
            back_times.append(time.perf_counter() - t)
        print(
            f"one step in the app on {len(text) / 1e6:.1f} MB (stepper + redraw): forward median "
            f"{statistics.median(step_times) * 1000:.1f} ms, max {max(step_times) * 1000:.1f} ms; backward median "
            f"{statistics.median(back_times) * 1000:.1f} ms, max {max(back_times) * 1000:.1f} ms"
        )
        print(
            f"  of which the key handler (stepper + building the views): median "
            f"{statistics.median(handler_times) * 1000:.1f} ms, max {max(handler_times) * 1000:.1f} ms; "
            f"peer: one pilot.pause() on the idle app costs {statistics.median(idle_pauses) * 1000:.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path)
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--vocab", type=int, default=1256)
    parser.add_argument("--idle", type=float, default=2.0)
    args = parser.parse_args()
    size = (160, 50)
    ours, peer = asyncio.run(first_paint(size))
    print(f"first paint at {size[0]}x{size[1]}: explorer {ours * 1000:.0f} ms, minimal app {peer * 1000:.0f} ms "
          f"(ratio {ours / peer:.1f}x)")
    path = args.corpus or default_corpus()
    text = path.read_bytes()[: int(args.mb * 1_000_000)].decode("utf-8", errors="ignore")
    asyncio.run(training_gaps(text, args.vocab, args.idle, size))


if __name__ == "__main__":
    main()
