"""Where the benchmarks find their default corpora: ``../shared/corpora/bench`` beside the repo.

Shared by every benchmark script (run as ``python benchmarks/bench_x.py``, so this directory is
on ``sys.path``). Any path may be passed on the command line instead.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SEARCHED = (REPO.parent / "shared", Path("/work/shared"))


def default_corpus(relative: str = "corpora/bench/en_10mb.txt") -> Path:
    """The first ``shared/<relative>`` that exists, or exit with a message asking for a path."""
    for base in SEARCHED:
        if (base / relative).exists():
            return base / relative
    raise SystemExit(f"no corpus given and ../shared/{relative} not found; pass a path")
