"""``bpe-explorer compare``'s aligned view on long texts: does it grow with the text, and what does
it cost beyond encoding?

For texts of growing length (English then Korean, from ``tests/data``, or a given FILE), in one
process with the tokenizers loaded once:

1. peer: the plain ``encode`` of the text by the same tokenizers (what any comparison pays);
2. compare: ``compare()`` (every row encoded with details, aligned, its statistics);
3. aligned: ``compare()`` plus the aligned view rendered by the CLI's own code to a true-colour
   console (into memory: the terminal's own drawing is not timed).

It prints each figure's ratio to the peer, and ms per KB: roughly constant ms/KB down a column
means linear. The first release spent 21 s on a 36 KB text (Rich ``Text`` objects per line).

    python benchmarks/bench_compare_cli.py [FILE] [--sizes 9000,18000,36000,72000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402

from bpe_cli.cmd_compare import AlignedView  # noqa: E402
from bpe_cli.output import open_tokenizer  # noqa: E402
from bpe_engine.compare import compare  # noqa: E402
from bpe_engine.compare.resolve import default_specs  # noqa: E402


def long_text(path: Path | None, size: int) -> str:
    """``size`` UTF-8 bytes of the file, or of English then Korean repeated, cut at a character."""
    if path is not None:
        raw = path.read_bytes()
    else:
        en = (ROOT / "tests/data/alice29.txt").read_text(encoding="utf-8")
        ko = (ROOT / "tests/data/constitution.txt").read_text(encoding="utf-8")
        raw = (en[:20000] + ko).encode()
    while len(raw) < size:
        raw += raw
    return raw[:size].decode("utf-8", "ignore")


def median_s(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def render_aligned(text: str, tokenizers: list, width: int = 120) -> int:  # type: ignore[type-arg]
    """What ``compare`` prints below its table, into memory; returns the bytes written."""
    result = compare(text, tokenizers, special_mode="text")
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, color_system="truecolor", highlight=False, soft_wrap=True)
    label_width = max(len(r.name) for r in result.rows) + 1
    console.print(AlignedView(result, width - label_width, label_width), overflow="ignore", crop=False, no_wrap=True)
    return len(out.getvalue())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=None)
    parser.add_argument("--sizes", default="9000,18000,36000,72000", help="text sizes in bytes")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    specs = default_specs()
    tokenizers = [open_tokenizer(s) for s in specs]
    render_aligned("warm up every tokenizer", tokenizers)
    print(f"rows: {', '.join(specs)}; medians of {args.repeat}")
    print(f"{'bytes':>8} {'peer encode':>12} {'compare':>10} {'aligned':>10} {'ratio c/peer':>13} {'ratio a/peer':>13}"
          f" {'aligned ms/KB':>14} {'output':>9}")
    for size in (int(s) for s in args.sizes.split(",")):
        text = long_text(args.file, size)
        peer = median_s(lambda: [t.encode(text, special_mode="text") for t in tokenizers], args.repeat)
        plain = median_s(lambda: compare(text, tokenizers, special_mode="text"), args.repeat)
        written = render_aligned(text, tokenizers)
        aligned = median_s(lambda: render_aligned(text, tokenizers), args.repeat)
        print(f"{size:>8,} {peer * 1000:>10.0f}ms {plain * 1000:>8.0f}ms {aligned * 1000:>8.0f}ms {plain / peer:>12.1f}x"
              f" {aligned / peer:>12.1f}x {aligned * 1000 / (size / 1000):>14.1f} {written / 1e6:>7.1f}MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
