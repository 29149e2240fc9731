"""The corpus options ``train`` and ``count`` share, and turning them into word counts.

Both commands read corpora the same way: files streamed block by block (``-`` is standard
input), each file one document or each line one (``--lines``), cut by the same pre-tokenizer at
the same level, special tokens cut out first. ``train`` may start from counts files instead
(``--from-counts``); ``count`` takes corpus files and counts files side by side.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, replace

from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeElapsedColumn, TransferSpeedColumn

from bpe_engine.core.normalizer import NormalForm
from bpe_engine.choices import PRE_TOKENIZERS, values
from bpe_engine.corpus import CountProgress, WordCounts, count_files
from bpe_engine.corpus.counts_file import CountsHeader, read_counts
from bpe_engine.errors import ConfigError
from bpe_engine.pretokenizers import PreTokenizer, get_pretokenizer

from .arg_types import positive
from .output import Throttle, say, stderr_console


@dataclass(frozen=True)
class CorpusSettings:
    """How a corpus is cut into words: what a counts file's header records."""

    pre_tokenizer: PreTokenizer
    byte_level: bool
    specials: tuple[str, ...]
    lines: bool

    def header(self, counts: WordCounts) -> CountsHeader:
        from importlib.metadata import PackageNotFoundError, version

        try:
            tool = f"bpe-explorer {version('bpe-explorer')}"
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            tool = "bpe-explorer"
        pre = self.pre_tokenizer
        return CountsHeader(
            pre_tokenizer=pre.name,
            pattern=pre.pattern if pre.name == "regex" else None,
            level="byte" if self.byte_level else "char",
            specials=self.specials,
            lines=self.lines,
            documents=counts.documents,
            words=counts.total_words,
            unique=True,
            tool=tool,
        )


def add_corpus_options(parser: argparse.ArgumentParser, *, pre_tokenizer_help: str) -> None:
    """Pre-tokenizer, level, specials, lines, and the bounds of counting (both commands)."""
    parser.add_argument(
        "--pre-tokenizer",
        choices=values(PRE_TOKENIZERS),
        default=None,
        help=pre_tokenizer_help,
    )
    parser.add_argument("--pattern", metavar="REGEX", help="your own pre-tokenizer regex (implies --pre-tokenizer regex)")
    level = parser.add_mutually_exclusive_group()
    level.add_argument("--byte-level", dest="byte_level", action="store_true", default=None, help="merge bytes (BPE default)")
    level.add_argument("--char-level", dest="byte_level", action="store_false", help="merge characters")
    parser.add_argument(
        "--special", action="append", type=_special_token, default=[], metavar="TOKEN", help="a special token (repeatable)"
    )
    parser.add_argument("--lines", action="store_true", help="each line of each file is one document (lines end at \\n)")
    parser.add_argument(
        "--min-word-count",
        type=positive,
        default=1,
        metavar="K",
        help="leave out words seen fewer than K times (shrinks the word table; default 1: keep all)",
    )
    parser.add_argument(
        "--memory-limit",
        type=parse_size,
        default=None,
        metavar="SIZE",
        help="memory the word table and training may use, e.g. 8G (default: what is available now)",
    )


def choose_pre_tokenizer(name: str | None, pattern: str | None) -> PreTokenizer:
    """``--pattern`` alone means a regex; a pattern with another named pre-tokenizer is a mistake."""
    if pattern is not None and name not in (None, "regex"):
        raise ConfigError(f"--pattern only goes with --pre-tokenizer regex (got --pre-tokenizer {name})")
    if pattern is not None:
        name = "regex"
    return get_pretokenizer(name or "gpt2", pattern)


def settings_from_args(args: argparse.Namespace) -> CorpusSettings:
    """The options as given, with the defaults (gpt2, byte-level) filled in."""
    return CorpusSettings(
        pre_tokenizer=choose_pre_tokenizer(args.pre_tokenizer, args.pattern),
        byte_level=True if args.byte_level is None else args.byte_level,
        specials=tuple(args.special),
        lines=args.lines,
    )


def settings_from_header(args: argparse.Namespace, header: CountsHeader, source: str) -> CorpusSettings:
    """The settings a counts file was made with; options that contradict it are an error."""
    pre = get_pretokenizer(header.pre_tokenizer, header.pattern)
    given = settings_from_args(args)
    clashes = []
    if (args.pre_tokenizer is not None or args.pattern is not None) and given.pre_tokenizer != pre:
        clashes.append(f"--pre-tokenizer {given.pre_tokenizer.name} (counted with {pre.name})")
    if args.byte_level is not None and args.byte_level != header.byte_level:
        clashes.append(f"--{'byte' if args.byte_level else 'char'}-level (counted {header.level}-level)")
    if args.special and tuple(args.special) != header.specials:
        clashes.append(f"--special {' '.join(args.special)} (counted with {list(header.specials) or 'none'})")
    if clashes:
        raise ConfigError(
            f"{source} was counted with other settings: {'; '.join(clashes)}. Leave the options out to use "
            "the file's settings, or count again with yours"
        )
    return CorpusSettings(pre, header.byte_level, header.specials, bool(header.lines))


def counts_from_files(
    args: argparse.Namespace,
    settings: CorpusSettings,
    paths: list[str],
    *,
    min_word_count: int,
    training: bool,
    workers: int = 2,
    normalizer: NormalForm | None = None,
) -> WordCounts:
    """Stream ``paths`` into word counts, with a progress bar on a terminal and early warnings
    (``normalizer``: a base tokenizer's Unicode form, applied before the words are cut)."""
    err = stderr_console()
    show = err.is_terminal
    # No auto-refresh: rich would start a thread, and counting forks its workers only while no
    # other thread runs. Redrawn here, at most every 0.1 s.
    progress = Progress(
        TextColumn("counting words"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TextColumn("{task.fields[words]:,} distinct"),
        TimeElapsedColumn(),
        console=err,
        auto_refresh=False,
        transient=False,
        disable=not show,
    )
    throttle = Throttle(0.1)
    with progress:
        task = progress.add_task("count", total=None, words=0)

        def report(step: CountProgress) -> None:
            if step.warning:
                say(err, f"warning: {step.warning}", "yellow")
            if show and throttle.ready():
                progress.update(task, completed=step.done_bytes, total=step.total_bytes, words=step.unique_words)
                progress.refresh()

        counts = count_files(
            paths,
            settings.pre_tokenizer,
            settings.specials,
            byte_level=settings.byte_level,
            lines=settings.lines,
            min_word_count=min_word_count,
            memory_budget=args.memory_limit,
            training=training,
            workers=workers,
            progress=report,
            normalizer=normalizer,
        )
        progress.update(task, completed=progress.tasks[0].total or 0, words=len(counts))
        progress.refresh()
    return counts


def counts_for_training(
    args: argparse.Namespace, pre_tokenizer: PreTokenizer | None = None, byte_level: bool | None = None
) -> tuple[WordCounts, CorpusSettings]:
    """``train``'s words: its files streamed, or (``--from-counts``) its counts files added up.

    ``pre_tokenizer``/``byte_level``: what ``train`` resolved from its own options (``--end-of-word``
    implies the end-of-word pre-tokenizer and character level), used for files; a counts file
    brings its own."""
    if not args.from_counts:
        settings = settings_from_args(args)
        settings = replace(
            settings,
            pre_tokenizer=pre_tokenizer or settings.pre_tokenizer,
            byte_level=settings.byte_level if byte_level is None else byte_level,
        )
        return counts_from_files(args, settings, list(args.files), min_word_count=args.min_word_count, training=True), settings
    default = settings_from_args(args).header(WordCounts({}, True))
    counts, header = read_counts(
        args.files, default=_headerless(default), min_count=args.min_word_count, memory_budget=args.memory_limit
    )
    return counts, settings_from_header(args, header, args.files[0])


def _headerless(header: CountsHeader) -> CountsHeader:
    """What a counts file without a header is taken to be: the options given (or the defaults)."""
    return CountsHeader(header.pre_tokenizer, header.pattern, header.level, header.specials)


def parse_size(value: str) -> int:
    """``8G``, ``512M``, ``1.5GiB``, ``100000`` -> bytes (binary units)."""
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([kmgt]?)(?:i?b)?\s*", value, re.IGNORECASE)
    if not match:
        raise argparse.ArgumentTypeError(f"{value!r} is not a size (examples: 8G, 512M, 1.5GiB)")
    number, unit = float(match.group(1)), match.group(2).lower()
    return int(number * 1024 ** " kmgt".index(unit or " "))


def _special_token(value: str) -> str:
    if not value:
        raise argparse.ArgumentTypeError("a special token cannot be empty (it would match between every two characters)")
    return value


def describe(settings: CorpusSettings) -> str:
    """One line about how words were cut: for the notes of both commands."""
    level = "byte-level" if settings.byte_level else "character-level"
    docs = "each line a document" if settings.lines else "each file a document"
    return f"pre-tokenizer {settings.pre_tokenizer.name}, {level}, {docs}"

