"""``bpe-explorer count``: reduce corpora to a counts file (``piece<TAB>count``), here or on a cluster.

Training needs only word -> count, so counting is the part worth scaling out: count 100 GB on a
Dask cluster (``--engine dask``), copy the counts file to a laptop, and ``train --from-counts``
there, with exactly the merges of training on the text. ``count`` also adds up counts files:
every FILE that starts with a counts header is one, the others are corpora (any mix).
See :mod:`bpe_engine.corpus.counts_file` for the format.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from bpe_engine.corpus import WordCounts
from bpe_engine.corpus.counting import add_part
from bpe_engine.corpus.counts_file import read_counts, read_header, write_counts
from bpe_engine.corpus.parallel import usable_cores
from bpe_engine.display import counted
from bpe_engine.errors import ConfigError

from .arg_types import positive
from .corpus_input import (
    CorpusSettings,
    add_corpus_options,
    counts_from_files,
    describe,
    settings_from_args,
    settings_from_header,
)
from .output import note, say, stderr_console, stdout_console

ENGINES = ("local", "dask")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "count",
        help="count the words of corpora into a counts file (here or on a Dask cluster)",
        description="Count the words of FILE... (corpora, or counts files to add up) and write "
        "piece<TAB>count rows to --output; train on them later with train --from-counts.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="corpus files ('-' reads standard input) or counts files")
    parser.add_argument("--output", "-o", required=True, metavar="FILE", help="the counts file to write ('-': standard output)")
    add_corpus_options(parser, pre_tokenizer_help="how text is cut into words (default gpt2; 'regex' with --pattern)")
    parser.add_argument("--no-header", action="store_true", help="leave out the header row (plain word<TAB>count rows)")
    parser.add_argument("--engine", choices=ENGINES, default="local", help="count on this machine's cores, or on Dask")
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="a dask.distributed scheduler (tcp://host:8786); without it --engine dask starts a local cluster",
    )
    parser.add_argument(
        "--workers",
        type=positive,
        default=None,
        metavar="N",
        help="processes counting at once, here or in the local Dask cluster (default 2; at most this machine's cores "
        "unless --oversubscribe)",
    )
    parser.add_argument(
        "--oversubscribe", action="store_true", help="start all --workers processes even when they are more than the cores"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.scheduler is not None and args.engine != "dask":
        raise ConfigError("--scheduler goes with --engine dask")
    count_paths = [f for f in args.files if f != "-" and read_header(f) is not None]
    corpus_paths = [f for f in args.files if f not in count_paths]
    settings = settings_from_args(args)
    table: dict[str, int] = {}
    documents = 0
    if count_paths:
        merged, header = read_counts(count_paths, memory_budget=args.memory_limit, training=False)
        # corpora counted beside counts files are cut as those were (options that differ: an error)
        settings = replace(settings_from_header(args, header, count_paths[0]), lines=args.lines)
        add_part(table, merged.counts)
        documents += merged.documents
    if corpus_paths:
        counted = _count(args, settings, corpus_paths)
        add_part(table, counted.counts)
        documents += counted.documents
    if args.min_word_count > 1:
        table = {w: n for w, n in table.items() if n >= args.min_word_count}
    counts = WordCounts(table, settings.byte_level, documents=documents, total_words=sum(table.values()))
    rows = write_counts(args.output, counts, None if args.no_header else settings.header(counts))
    _report(args, settings, counts, rows, len(corpus_paths), len(count_paths))
    return 0


DEFAULT_WORKERS = 2


def workers_for(args: argparse.Namespace) -> int:
    """The processes to count with: ``--workers``, capped at the cores here unless the user says
    ``--oversubscribe`` (``--workers 1000`` started a thousand processes on two cores, and 200 of
    them spent 170 s on 2.8 KB). A cluster behind ``--scheduler`` has workers of its own."""
    if args.scheduler is not None:
        if args.workers is not None:
            note("--workers sizes a local cluster; the scheduler's cluster counts with its own workers")
        return DEFAULT_WORKERS
    wanted = DEFAULT_WORKERS if args.workers is None else args.workers
    cores = usable_cores()
    if wanted <= cores or args.oversubscribe:
        return wanted
    if args.workers is not None:
        note(f"--workers {wanted} is more than the {cores} core{'s' * (cores != 1)} here: {cores} count at once (--oversubscribe starts them all)")
    return cores


def _count(args: argparse.Namespace, settings: CorpusSettings, paths: list[str]) -> WordCounts:
    workers = workers_for(args)
    if args.engine == "dask":
        from bpe_engine.corpus.dask_engine import count_files_on_dask

        return count_files_on_dask(
            paths,
            settings.pre_tokenizer,
            settings.specials,
            byte_level=settings.byte_level,
            lines=settings.lines,
            scheduler=args.scheduler,
            workers=workers,
        )
    return counts_from_files(args, settings, paths, min_word_count=1, training=False, workers=workers)  # filtered after adding up


def _report(args: argparse.Namespace, settings: CorpusSettings, counts: WordCounts, rows: int, corpora: int, files: int) -> None:
    console = stderr_console() if args.output == "-" else stdout_console()
    inputs = [counted(corpora, "corpus file") if corpora else "", counted(files, "counts file") if files else ""]
    say(
        console,
        f"counted {' and '.join(i for i in inputs if i)}: {counted(rows, 'distinct word')}, {counted(counts.total_words, 'word')} "
        f"({describe(settings)})",
    )
    if args.output != "-":
        say(console, f"  wrote {args.output}")
