"""``bpe-explorer extend BASE FILE... --add N -o DIR``: teach a real tokenizer merges learnt on your corpus.

The corpus is cut with the base's own pre-tokenizer (after its normalizer), every word starts as
the base's tokens, and ``train``'s merge loop adds N merges (:mod:`bpe_engine.surgery.extend`);
``--force`` strings become single tokens after that. Every base id keeps its meaning; the new ids
follow the largest in use. The result is written in the base's formats beside ours
(:mod:`bpe_engine.surgery.save`) and the checks of :mod:`bpe_engine.surgery.checks` are printed.
The corpus options mean what they mean for ``train``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bpe_engine.choices import TIE_BREAKS, values
from bpe_engine.display import counted
from bpe_engine.errors import ConfigError
from bpe_engine.training.bpe.config import DEFAULT_MAX_TOKEN_LENGTH

from .arg_types import non_negative, positive
from .corpus_input import parse_size
from .output import Throttle, say, stderr_console, stdout_console, training_progress


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "extend",
        help="add merges learnt on your corpus to a real tokenizer, keeping every id",
        description="Extend BASE (gpt2, cl100k_base, o200k_base, llama3, qwen2.5, a BPE tokenizer.json, "
        "vocab.json + merges.txt, a .tiktoken, a saved directory) with N merges learnt on FILE...: "
        "the base's tokens keep their ids, new ones follow the largest id in use; writes the base's "
        "formats and tokenizer.json into --output.",
    )
    parser.add_argument("base", metavar="BASE", help="the tokenizer to extend (a name, file or directory)")
    parser.add_argument("files", nargs="*", metavar="FILE", help="corpus files ('-' reads standard input), or counts files with --from-counts")
    parser.add_argument("--add", type=positive, required=True, metavar="N", help="how many merges to add")
    add_output_options(parser)
    parser.add_argument("--from-counts", action="store_true", help="the FILEs are counts files (bpe-explorer count) cut the base's way")
    add_base_corpus_options(parser)
    parser.add_argument("--tie-break", choices=values(TIE_BREAKS), default="hf", help="which pair wins when counts tie (default hf)")
    parser.add_argument(
        "--max-token-length", type=non_negative, default=None, metavar="N",
        help=f"no merge makes a token of N bytes or more (default {DEFAULT_MAX_TOKEN_LENGTH}; 0 = no limit)",
    )
    parser.add_argument("--min-frequency", type=non_negative, default=0, metavar="K", help="stop when the best pair occurs fewer than K times")
    parser.add_argument("--force", action="append", default=[], metavar="STRING", help="a string that must come out as one token (repeatable)")
    parser.add_argument("--force-file", metavar="FILE", help="strings to force, one per line")
    parser.set_defaults(func=run)


def add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--output", "-o", required=True, metavar="DIR", help="a new or empty directory to write into")
    parser.add_argument("--name", default=None, help="the new tokenizer's name (default: the output directory's name)")


def add_base_corpus_options(parser: argparse.ArgumentParser) -> None:
    """The corpus options of ``train`` that still apply when the base decides how words are cut."""
    parser.add_argument("--lines", action="store_true", help="each line of each file is one document (lines end at \\n)")
    parser.add_argument("--min-word-count", type=positive, default=1, metavar="K", help="leave out words seen fewer than K times")
    parser.add_argument("--memory-limit", type=parse_size, default=None, metavar="SIZE", help="memory counting and training may use, e.g. 8G")


def run(args: argparse.Namespace) -> int:
    from bpe_engine.surgery.checks import surgery_checks
    from bpe_engine.surgery.force import check_forced, force_strings
    from bpe_engine.surgery.save import save_changed
    from bpe_engine.surgery.trainer.config import ExtendTrainerConfig
    from bpe_engine.surgery.trainer.hooks import ExtendRun
    from bpe_engine.training.protocol import TrainingCorpus

    if not args.files:
        raise ConfigError("extend needs corpus files to learn merges from (or counts files with --from-counts)")
    out = output_dir(args)
    base = open_base(args.base)
    max_length = DEFAULT_MAX_TOKEN_LENGTH if args.max_token_length is None else (args.max_token_length or None)
    strings = forced_strings(args)
    check_forced(strings, max_length, base.byte_level)
    config = ExtendTrainerConfig(  # checks the options and --add against the id bound, before counting
        base=args.base, add=args.add, min_frequency=args.min_frequency, max_token_length=max_length, tie_break=args.tie_break
    )
    corpus = base_counts(args, base)
    training = ExtendRun(config, TrainingCorpus(counts=corpus))
    steps = drive_with_progress(training)
    run_ = training.run
    name = args.name or out.resolve().name
    tokenizer, forced = force_strings(base, run_.new_merges, run_.new_tokens(), strings, name)
    new_ids = sorted({*run_.new_tokens().values(), *forced.tokens.values()})
    written = save_changed(tokenizer, base, out, name=name, operation="extend", new_ids=new_ids)
    console = stdout_console()
    say(console, f"extended {base.name!r} into {name!r}: {counted(len(steps), 'new merge')}, {counted(len(new_ids), 'new id')}")
    for line in surgery_checks(base.tokenizer, tokenizer, corpus).lines(base.name, name):
        say(console, f"  {line}")
    say_shorter_words(base.tokenizer, tokenizer, corpus)
    for s in forced.forced:
        say(console, f"  forced: {s!r} is one token now")
    for s in forced.already:
        say(console, f"  forced: {s!r} was one token already")
    for s, why in forced.refused.items():
        say(console, f"note: cannot force {s!r}: {why}", "yellow")
    report_written(written, run_.notes)
    return 0


def output_dir(args: argparse.Namespace) -> Path:
    """``--output``, checked before any work: new, empty, or an earlier save (never your own files)."""
    from bpe_engine.formats.saved_dir import check_save_target

    out = Path(args.output)
    check_save_target(out)
    return out


def open_base(spec: str) -> Any:
    """The base as surgery reads it; what is not a BPE is one line saying what to do."""
    from bpe_engine.surgery.trainer.config import base_named

    return base_named(spec)  # the one cache the trainer's config reads too


def forced_strings(args: argparse.Namespace) -> list[str]:
    strings = list(args.force)
    if args.force_file:
        from bpe_engine.core.text_files import read_text_file

        text = read_text_file(args.force_file)
        strings += [line.rstrip("\r") for line in text.split("\n") if line.rstrip("\r")]
    return strings


def base_counts(args: argparse.Namespace, base: Any) -> Any:
    """The corpus counted the base's way: its pre-tokenizer, normalizer and specials (``--from-counts``:
    counts files, which must have been cut with the base's pre-tokenizer)."""
    from .corpus_input import CorpusSettings, counts_from_files

    settings = CorpusSettings(base.pre_tokenizer, base.byte_level, tuple(base.specials), args.lines)
    if not args.from_counts:
        return counts_from_files(args, settings, list(args.files), min_word_count=args.min_word_count, training=True, normalizer=base.normalizer)
    from bpe_engine.corpus.counts_file import CountsHeader, read_counts

    default = CountsHeader(base.pre_tokenizer.name, base.pre_tokenizer.pattern, "byte" if base.byte_level else "char", ())
    counts, header = read_counts(args.files, default=default, min_count=args.min_word_count, memory_budget=args.memory_limit)
    if header.pre_tokenizer != base.pre_tokenizer.name or header.byte_level != base.byte_level:
        raise ConfigError(
            f"{args.files[0]} was counted with --pre-tokenizer {header.pre_tokenizer} ({header.level}-level), but "
            f"{base.name!r} cuts words with {base.pre_tokenizer.name} ({'byte' if base.byte_level else 'char'}-level): "
            "count the corpus with the base's pre-tokenizer, or give the text files"
        )
    if base.normalizer:
        raise ConfigError(f"{base.name!r} puts text in {base.normalizer} first, which counts files do not record: give the text files")
    return counts


def drive_with_progress(training: Any) -> list[Any]:
    """The new merges through the runner's one loop, with a progress bar on stderr (ctrl+c stops,
    as for ``train``)."""
    from bpe_engine.training.runner import Started, Steps, drive

    steps: list[Any] = []
    throttle = Throttle()
    with training_progress(stderr_console(), "merges") as progress:
        task = progress.add_task("merging", total=None)
        for event in drive(training):
            if isinstance(event, Started):
                progress.update(task, total=event.target or None)
            elif isinstance(event, Steps):
                steps.extend(event.steps)
                if throttle.ready():
                    progress.update(task, completed=event.done, total=max(event.target, event.done))
        progress.update(task, completed=len(steps), total=max(len(steps), 1))
    return steps


def say_shorter_words(before: Any, after: Any, corpus: Any) -> None:
    """The words that changed most, with their tokens before -> after and their count."""
    from bpe_engine.display import visible_text
    from bpe_engine.surgery.checks import shorter_words

    words = shorter_words(before, after, corpus)
    if not words:
        return
    shown = [
        f"{visible_text(_text_of(after, w.word))!r} {w.before}->{w.after} (x{w.count:,})" for w in words
    ]
    say(stdout_console(), f"  words that changed most: {', '.join(shown)}")


def _text_of(tokenizer: Any, word: str) -> str:
    """A counted word as text (byte-level words are kept in GPT-2's byte alphabet)."""
    if not tokenizer.byte_level:
        return word
    from bpe_engine.surgery.base import word_bytes

    return word_bytes(word).decode("utf-8", "replace")


def report_written(written: list[Path], notes: list[str]) -> None:
    console = stdout_console()
    for path in written:
        say(console, f"  wrote {path}")
    for message in notes:
        say(console, f"note: {message}", "yellow")
