"""``bpe-explorer [FILE...]``: open the app on files, or on the built-in sample corpus.

Kept apart from :mod:`tui.app` so the CLI, the tests and the benchmarks build the app the same
way (:func:`build_app`), and so reading files fails with a one-line message before any screen
is drawn.
"""

from __future__ import annotations

import os
import sys
from importlib import resources
from pathlib import Path

from bpe_engine.core.block_text import BlockText
from bpe_engine.core.text_files import read_text_blocks
from bpe_engine.errors import CorpusError

from . import paste_parser
from .app import ExplorerApp

SAMPLE = "sample_corpus.txt"
PROFILE_ENV = "BPE_EXPLORER_PROFILE"
"""``BPE_EXPLORER_PROFILE=out.prof bpe-explorer ...`` writes a cProfile of the UI thread on exit
(``python -m pstats out.prof``): how the app's latency was found and is checked again."""


def sample_corpus() -> str:
    """The bilingual sample corpus shipped as package data."""
    return resources.files("bpe_engine.data").joinpath(SAMPLE).read_text(encoding="utf-8")


def build_app(paths: list[str] | None = None) -> ExplorerApp:
    """The app on ``paths`` joined (one document per file, separated by a blank line) or the sample.

    The files' text is a :class:`~bpe_engine.core.block_text.BlockText`, read a part at a time.

    Raises CorpusError (one line that says what to do) for a file that cannot be read as text.
    """
    if not paths:
        return ExplorerApp(sample_corpus(), source="sample corpus (English + Korean)")
    texts = [read_text_blocks(p) for p in paths]
    source = Path(paths[0]).name + (f" + {len(paths) - 1} more" if len(paths) > 1 else "")
    # In blocks, never one str: the app holds its corpus for as long as it runs, and one emoji in
    # a 50 MB file made the whole str 4 bytes per character (the corpus pane keeps a small one as str).
    corpus = texts[0] if len(texts) == 1 else BlockText.joined("\n\n", texts)
    return ExplorerApp(corpus, source=source)


def run_app(argv: list[str]) -> int:
    """Entry point used by ``bpe_cli.main`` when no sub-command is given; returns the exit status."""
    if any(a in ("-h", "--help") for a in argv):
        print("usage: bpe-explorer [FILE...]   (opens the explorer; see bpe-explorer --help for commands)")
        return 0
    try:
        app = build_app(argv)
    except CorpusError as exc:
        print(f"bpe-explorer: error: {exc}", file=sys.stderr)
        return 2
    paste_parser.install()  # a paste arrives whole and exactly as pasted
    try:
        _run_profiled(app) if os.environ.get(PROFILE_ENV) else app.run()
    except KeyboardInterrupt:  # a signal from outside (kill -INT): leave quietly, as other CLIs do
        return 130
    return 0


def _run_profiled(app: ExplorerApp) -> None:
    """Run ``app`` under cProfile (the UI thread: the one whose time the user waits on)."""
    import cProfile

    profiler = cProfile.Profile()
    try:
        profiler.runcall(app.run)
    finally:
        profiler.dump_stats(os.environ[PROFILE_ENV])
