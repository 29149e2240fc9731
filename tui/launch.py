"""``bpe-explorer [FILE...]``: open the app on files, or on the built-in sample corpus.

Kept apart from :mod:`tui.app` so the CLI, the tests and the benchmarks build the app the same
way (:func:`build_app`), and so reading files fails with a one-line message before any screen
is drawn.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

from .app import ExplorerApp

SAMPLE = "sample_corpus.txt"


def sample_corpus() -> str:
    """The bilingual sample corpus shipped as package data."""
    return resources.files("bpe_engine.data").joinpath(SAMPLE).read_text(encoding="utf-8")


def build_app(paths: list[str] | None = None) -> ExplorerApp:
    """The app on ``paths`` joined (one document per file, separated by a blank line) or the sample.

    Raises OSError / UnicodeDecodeError for a file that cannot be read as UTF-8 text.
    """
    if not paths:
        return ExplorerApp(sample_corpus(), source="sample corpus (English + Korean)")
    texts = [Path(p).read_text(encoding="utf-8") for p in paths]
    source = Path(paths[0]).name + (f" + {len(paths) - 1} more" if len(paths) > 1 else "")
    return ExplorerApp("\n\n".join(texts), source=source)


def run_app(argv: list[str]) -> int:
    """Entry point used by ``bpe_cli.main`` when no sub-command is given; returns the exit status."""
    if any(a in ("-h", "--help") for a in argv):
        print("usage: bpe-explorer [FILE...]   (opens the explorer; see bpe-explorer --help for commands)")
        return 0
    try:
        app = build_app(argv)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"bpe-explorer: error: cannot open corpus: {exc}", file=sys.stderr)
        return 2
    app.run()
    return 0
