"""Comparison view latency: a 5 KB text across the seven rows, against tiktoken's raw encode.

Three figures, medians over ``--repeat`` runs, measured in the same process:

1. engine: ``run_comparison`` -- every row encoded with details, aligned, its statistics, and the
   line wrapping the pane draws from (blocks are laid out lazily when scrolled into view) -- for
   characters, words, ours (trained here on the sample corpus, not timed), WordPiece, gpt2,
   cl100k_base and o200k_base;
   and the same after one key typed mid-text with the pane's line cache warm (what typing costs);
2. peer: tiktoken's ``encode`` of the same text for gpt2 + cl100k_base + o200k_base, built from
   the same verified ranks (what any tokenizer comparison must pay at least);
3. app: in a headless Textual app, time from the text area's change event (the key) to the pane
   having redrawn that text's table and rows -- the 10 ms debounce, the worker thread and the
   message back included; the terminal write itself is not (Pilot has none).

    python benchmarks/bench_compare.py [--repeat 15] [--size 5000] [FILE]

Goal: median key-to-redraw <= 50 ms for 5 KB.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import tiktoken  # noqa: E402

from bpe_engine.catalog.openai import reference_pre_tokenizer, reference_ranks, reference_special_tokens  # noqa: E402
from bpe_engine.compare.segments import SegmentCache  # noqa: E402
from bpe_engine.training.bpe import BpeTrainerConfig, train  # noqa: E402
from tui.models import sources  # noqa: E402
from tui.compare.running import run_comparison  # noqa: E402

ROWS = ("characters", "words", "ours", "bert-base-uncased", "gpt2", "cl100k_base", "o200k_base")
REFS = ("gpt2", "cl100k_base", "o200k_base")


def sample_text(path: Path | None, size: int) -> str:
    """``size`` UTF-8 bytes: English then Korean (or the given file), cut at a character."""
    if path is not None:
        raw = path.read_bytes()
    else:
        en = (ROOT / "tests/data/alice29.txt").read_text(encoding="utf-8")
        ko = (ROOT / "tests/data/constitution.txt").read_text(encoding="utf-8")
        raw = (en[: size * 2 // 3] + ko).encode()
    return raw[:size].decode("utf-8", "ignore")


def trained_model() -> object:
    corpus = (ROOT / "bpe_engine/data/sample_corpus.txt").read_text(encoding="utf-8")
    return train([corpus], BpeTrainerConfig(vocab_size=256 + 1000)).tokenizer


def timings_ms(fn, repeat: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(median wall time, best CPU time) in ms: the machine is shared, so both are shown."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall) * 1000, min(cpu) * 1000


def tiktoken_encodings() -> list[tiktoken.Encoding]:
    return [
        tiktoken.Encoding(
            name,
            pat_str=reference_pre_tokenizer(name).pattern or "",
            mergeable_ranks=reference_ranks(name),
            special_tokens=reference_special_tokens(name),
        )
        for name in REFS
    ]


async def key_to_redraw(text: str, ours: object, repeat: int) -> float:
    """Median ms from the TextArea's change event to the pane having drawn that text's rows."""
    from textual.app import App, ComposeResult
    from textual.widgets import TextArea

    from tui.compare import ComparePane

    changed: dict[str, float] = {}
    drawn: list[float] = []

    class TimedPane(ComparePane):
        def on_text_area_changed(self, event: TextArea.Changed) -> None:
            changed[event.text_area.text] = time.perf_counter()
            super().on_text_area_changed(event)

        def _draw(self, r) -> None:  # type: ignore[no-untyped-def]
            super()._draw(r)
            start = changed.pop(r.comparison.text, None)
            if start is not None:
                drawn.append(time.perf_counter() - start)

    class Host(App[None]):
        tokenizer = ours
        stepper = None
        current_step = 0

        def compose(self) -> ComposeResult:
            yield TimedPane(text=text, rows=ROWS)

    app = Host()
    async with app.run_test(size=(160, 50)) as pilot:
        pane = app.query_one(ComparePane)
        for _ in range(60):  # the first run loads every tokenizer
            await pilot.pause(0.1)
            if pane.result is not None and pane.result.generation == pane._generation:  # noqa: SLF001
                break
        app.query_one(TextArea).focus()
        for i in range(repeat):
            await pilot.press("a" if i % 2 else "b")
            await pilot.pause(0.3)
            await app.workers.wait_for_complete()
    return statistics.median(drawn) * 1000 if drawn else float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=None)
    parser.add_argument("--size", type=int, default=5000, help="bytes of text (default 5000)")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--no-app", action="store_true", help="skip the headless app measurement")
    args = parser.parse_args(argv)

    text = sample_text(args.file, args.size)
    ours = trained_model()
    provider = lambda: ours  # noqa: E731
    for spec in ROWS:  # load (and warm) every tokenizer outside the timing
        sources.get(spec, provider)
    run_comparison(0, text, ROWS, "text", provider, 1000, 150)
    encs = tiktoken_encodings()
    for enc in encs:
        enc.encode(text, disallowed_special=())

    engine, engine_cpu = timings_ms(lambda: run_comparison(0, text, ROWS, "text", provider, 1000, 150), args.repeat)
    cache = SegmentCache()
    run_comparison(0, text, ROWS, "text", provider, 1000, 150, cache)
    middle = len(text) // 2
    edits = iter(range(10**6))

    def type_one_key() -> None:  # what the pane does per key: one line is new, the rest cached
        n = next(edits)
        run_comparison(0, text[:middle] + f"x{n}" + text[middle:], ROWS, "text", provider, 1000, 150, cache)

    typed, typed_cpu = timings_ms(type_one_key, args.repeat)
    peer, peer_cpu = timings_ms(lambda: [e.encode(text, disallowed_special=()) for e in encs], args.repeat)
    result = run_comparison(0, text, ROWS, "text", provider, 1000, 150)
    print(f"text: {len(text):,} characters, {len(text.encode()):,} bytes; rows: {', '.join(ROWS)}")
    for label, row in zip(result.labels, result.comparison.rows, strict=True):
        tokens = row.stats.tokens if row.stats else "error"
        print(f"  {label:<16} {tokens!s:>6} tokens  {row.seconds * 1000:7.2f} ms  {row.error or ''}")
    print(f"engine (7 rows: encode + align + stats + wrap): median {engine:7.2f} ms wall, best {engine_cpu:7.2f} ms CPU")
    print(f"engine, one key typed (line cache warm):         median {typed:7.2f} ms wall, best {typed_cpu:7.2f} ms CPU")
    print(f"peer   (tiktoken encode, 3 references):         median {peer:7.2f} ms wall, best {peer_cpu:7.2f} ms CPU")
    print(f"ratio engine / peer: {engine / peer:.1f}x wall, {engine_cpu / max(peer_cpu, 1e-9):.1f}x CPU (whole text)")
    print(f"ratio typed / peer:  {typed / peer:.1f}x wall, {typed_cpu / max(peer_cpu, 1e-9):.1f}x CPU")
    if not args.no_app:
        app_ms = asyncio.run(key_to_redraw(text, ours, args.repeat))
        print(f"app    (key -> pane redrawn, headless):         median {app_ms:7.2f} ms wall (goal <= 50 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
