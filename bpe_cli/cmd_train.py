"""``bpe-explorer train``: train a tokenizer on files and save it in every format it fits.

Each FILE is one document (``--lines``: each line is one, as Hugging Face's ``train(files)``
reads them; ``-`` is standard input). The trainer is a generator, so the progress bar on stderr
shows merges done / target and merges per second while it runs; its notes (alphabet size, early
stop, ...) are printed at the end with the files written.

``--model`` is the switch for other trainers (WordPiece); each model registers a runner in
:data:`TRAINERS`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bpe_engine.choices import END_OF_WORD_STYLES, MODELS, TIE_BREAKS, WORDPIECE_MERGE_BY, help_of, values
from bpe_engine.display import counted
from bpe_engine.errors import ConfigError
from bpe_engine.pretokenizers import PreTokenizer, get_pretokenizer
from bpe_engine.training.bpe.config import DEFAULT_MAX_TOKEN_LENGTH
from bpe_engine.training.steps import MergeStep

from .arg_types import non_negative, vocab_size
from .corpus_input import _special_token, add_corpus_options, choose_pre_tokenizer, counts_for_training
from .output import Throttle, merge_progress, say, stderr_console, stdout_console, unigram_progress


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train a tokenizer on text files",
        description="Train a BPE tokenizer on FILE... and write tokenizer.json, vocab.json, merges.txt "
        "(and NAME.tiktoken for byte-level models) into --output; --model wordpiece writes vocab.txt "
        "(and tokenizer.json).",
    )
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="corpus files ('-' reads standard input), or counts files with --from-counts"
    )
    parser.add_argument("--vocab-size", type=vocab_size, required=True, metavar="N", help="target vocabulary size (1 to 1,000,000)")
    parser.add_argument("--output", "-o", required=True, metavar="DIR", help="directory to write the tokenizer into")
    parser.add_argument("--model", choices=values(MODELS), default="bpe", help="the tokenizer model to train")
    parser.add_argument(
        "--from-counts",
        action="store_true",
        help="the FILEs are counts files (bpe-explorer count): train on their words, added up",
    )
    add_corpus_options(parser, pre_tokenizer_help="how text is cut into words before merging (default gpt2; 'regex' with --pattern)")
    parser.add_argument("--tie-break", choices=values(TIE_BREAKS), default=None, help="which pair wins when counts tie (BPE; default hf)")
    parser.add_argument(
        "--merge-by",
        choices=values(WORDPIECE_MERGE_BY),
        default=None,
        help=f"how WordPiece picks its next merge (default {WORDPIECE_MERGE_BY[0].value}): {help_of(WORDPIECE_MERGE_BY)}",
    )
    parser.add_argument(
        "--end-of-word",
        choices=values(END_OF_WORD_STYLES),
        default=None,
        help="how </w> marks a word's end: attached to its last character (l o w</w>, HF's end_of_word_suffix) "
        "or separate, a symbol of its own (l o w </w>, Sennrich et al. 2016); implies --pre-tokenizer end-of-word",
    )
    parser.add_argument(
        "--max-token-length",
        type=non_negative,
        default=None,
        metavar="N",
        help=f"no merge makes a token of N characters or more (bytes for byte-level; BPE; default "
        f"{DEFAULT_MAX_TOKEN_LENGTH}, SentencePiece's; 0 = no limit)",
    )
    parser.add_argument(
        "--unk-token",
        type=_special_token,
        default=None,
        metavar="TOKEN",
        help="a special token that stands for characters the alphabet lacks (character-level; "
        "WordPiece default [UNK])",
    )
    parser.add_argument(
        "--min-frequency",
        type=non_negative,
        default=None,
        metavar="K",
        help="stop when the best pair occurs fewer than K times (default: 0 for BPE, 2 for WordPiece)",
    )
    parser.add_argument("--name", default=None, help="tokenizer name (default: the output directory's name)")
    from .unigram_options import add_unigram_options

    add_unigram_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if "-" in args.files:
        import sys

        if sys.stdin is None:
            raise ConfigError("standard input is closed, but '-' asks to read the corpus from it; pass a file instead")
    pre = None
    if args.pre_tokenizer is not None or args.pattern is not None:
        pre = choose_pre_tokenizer(args.pre_tokenizer, args.pattern)
    elif args.end_of_word is not None:
        pre = get_pretokenizer("end-of-word")
    if args.merge_by is not None and args.model != "wordpiece":
        raise ConfigError(f"--merge-by applies to --model wordpiece ({args.model} trains its own way)")
    return TRAINERS[args.model](args, pre)


def _output_dir(args: argparse.Namespace) -> Path:
    """``--output``, checked before any training: a save replaces the directory as a whole, so it
    must be new, empty or an earlier save (never a folder of the user's own files)."""
    from bpe_engine.formats.saved_dir import check_save_target

    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--output {out} exists and is not a directory")
    check_save_target(out)
    return out


def _run_with_progress(training: Any) -> list[MergeStep]:
    """Drive a trainer's ``steps()`` generator with a progress bar on stderr; its merges (each with
    its count and why, saved in training.jsonl)."""
    steps: list[MergeStep] = []
    throttle = Throttle()
    with merge_progress(stderr_console()) as progress:
        task = progress.add_task("merging", total=max(training.target_merges, 0))
        for step in training.steps():
            steps.append(step)
            if throttle.ready():
                progress.update(task, completed=len(steps))
        progress.update(task, completed=len(steps), total=max(len(steps), training.target_merges))
    return steps


def train_bpe(args: argparse.Namespace, pre: PreTokenizer | None) -> int:
    """Read, count, merge with a progress bar, save; print files and notes."""
    from bpe_engine.formats import save_spec, skipped_formats, spec_from_tokenizer
    from bpe_engine.pretokenizers import GPT2
    from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining

    out = _output_dir(args)
    pre = pre or GPT2
    # </w> and an unknown token are character-level: say so rather than demand --char-level too
    byte_level = args.byte_level
    if byte_level is None:
        byte_level = pre.end_of_word_suffix is None and args.unk_token is None
    max_length = DEFAULT_MAX_TOKEN_LENGTH if args.max_token_length is None else (args.max_token_length or None)
    counts, corpus = counts_for_training(args, pre, byte_level)  # files streamed, or counts files added up
    byte_level = corpus.byte_level
    config = BpeTrainerConfig(
        vocab_size=args.vocab_size,
        byte_level=byte_level,
        pre_tokenizer=corpus.pre_tokenizer,
        min_frequency=args.min_frequency or 0,
        special_tokens=corpus.specials,
        tie_break=args.tie_break or "hf",
        max_token_length=max_length,
        end_of_word=args.end_of_word,
        unk_token=args.unk_token,
    )
    training = BpeTraining(counts, config)
    steps = _run_with_progress(training)
    spec = spec_from_tokenizer(training.tokenizer())
    spec.name = args.name or out.resolve().name
    written = save_spec(spec, out, steps=steps)
    skipped = [f"{fmt} not written: {why}" for fmt, why in skipped_formats(spec).items() if fmt != ".tiktoken" or byte_level]
    _report(spec.name, f"{counted(len(spec.vocab) + len(spec.special_tokens), 'token')}, {counted(len(steps), 'merge')}", written, [*training.notes, *skipped])
    return 0


def train_wordpiece(args: argparse.Namespace, pre: PreTokenizer | None) -> int:
    """WordPiece: BERT's front end unless a pre-tokenizer is named; saves vocab.txt (+ tokenizer.json)."""
    from bpe_engine.corpus import stream_texts
    from bpe_engine.corpus.blocks import CutRule
    from bpe_engine.formats import save_tokenizer
    from bpe_engine.training.wordpiece import WordPieceTrainerConfig, WordPieceTraining
    from bpe_engine.wordpiece import BERT_SPECIALS, vocab_txt_problem

    if args.from_counts:
        raise ConfigError("--from-counts trains --model bpe; WordPiece counts its words through BERT's normaliser")
    if args.byte_level:
        raise ConfigError("--byte-level does not apply to --model wordpiece (WordPiece merges characters)")
    if args.tie_break is not None:
        raise ConfigError(
            "--tie-break applies to --model bpe; WordPiece by count breaks ties by the smaller ids (as HF), by score by "
            "count, then the pair"
        )
    for option, value in (("--end-of-word", args.end_of_word), ("--max-token-length", args.max_token_length)):
        if value is not None:
            raise ConfigError(f"{option} applies to --model bpe; WordPiece marks word-inner pieces with ## instead")
    out = _output_dir(args)
    unk = args.unk_token or "[UNK]"
    specials = tuple(dict.fromkeys([*BERT_SPECIALS, *args.special, unk]))
    config = WordPieceTrainerConfig(
        vocab_size=args.vocab_size,
        min_frequency=2 if args.min_frequency is None else args.min_frequency,
        special_tokens=specials,
        unk_token=unk,
        pre_tokenizer=pre,
        **({} if args.merge_by is None else {"merge_by": args.merge_by}),
    )
    # Streamed: BERT's front end gives the same words for text cut after a newline (whitespace, where
    # its normaliser keeps nothing across); another pre-tokenizer is cut only where it says it may be.
    rule = CutRule(lines=True, spaces=False) if pre is None else CutRule.for_job(pre, (), lines=args.lines)
    texts = stream_texts(args.files, rule, lines=args.lines and pre is not None)
    with stderr_console().status("reading and counting words...", spinner="dots"):
        training = WordPieceTraining(texts, config)
    steps = _run_with_progress(training)
    tokenizer = training.tokenizer(name=args.name or out.resolve().name)
    written = save_tokenizer(tokenizer, out, steps=steps)
    notes = list(training.notes)
    if all(path.name != "vocab.txt" for path in written):
        notes.append(f"vocab.txt not written: {vocab_txt_problem(tokenizer)}; tokenizer.json holds every token")
    _report(tokenizer.name, f"{counted(tokenizer.vocab_size, 'token')}, {counted(len(steps), 'merge')}", written, notes)
    return 0


def _report(name: str, facts: str, written: list[Path], notes: list[str]) -> None:
    """What was trained (``facts``: its size and steps) and written; names and paths in visible
    form (they may hold anything)."""
    console = stdout_console()
    say(console, f"trained {name!r}: {facts}")
    for path in written:
        say(console, f"  wrote {path}")
    for note in notes:
        say(console, f"note: {note}", "yellow")


def train_unigram(args: argparse.Namespace, pre: PreTokenizer | None) -> int:
    """SentencePiece Unigram: each line a sentence, SentencePiece's options; NAME.model + tokenizer.json."""
    from bpe_engine.training.unigram import EmStep, PruneStep, SeedStep, UnigramTrainerConfig, UnigramTraining

    from .unigram_options import config_from_args

    if pre is not None or args.from_counts or args.byte_level or args.tie_break or args.end_of_word:
        raise ConfigError(
            "--model unigram reads each line as a sentence with SentencePiece's own options; "
            "--pre-tokenizer, --from-counts, --byte-level, --tie-break and --end-of-word do not apply"
        )
    if "-" in args.files:
        raise ConfigError("--model unigram reads files (SentencePiece reads its input twice); save standard input to a file first")
    out = _output_dir(args)
    config: UnigramTrainerConfig = config_from_args(args)
    training = UnigramTraining(config=config, files=args.files, memory_limit=args.memory_limit)
    em_steps = rounds = 0
    steps = []
    with unigram_progress(stderr_console()) as progress:
        task = progress.add_task("reading, counting words, seeding", total=None, pieces="")
        for step in training.steps():
            steps.append(step)
            if isinstance(step, SeedStep):
                label, size = "seeds", len(step.pieces)
            elif isinstance(step, EmStep):
                em_steps += 1
                label, size = f"round {step.round + 1}: EM {step.sub_iteration + 1}/{config.num_sub_iterations}", step.vocab_size
            elif isinstance(step, PruneStep):
                rounds += 1
                label, size = f"round {step.round + 1}: pruned", step.size_after
            else:
                label, size = "final", len(step.pieces)
            progress.update(task, description=label, completed=step.index + 1, total=training.total_steps, pieces=f"{size:,}")
    name = args.name or out.resolve().name
    written = training.save(out, name, steps)
    facts = f"{counted(len(training.pieces), 'piece')} after {counted(em_steps, 'EM step')} and {counted(rounds, 'pruning round')}"
    _report(name, facts, written, training.notes)
    return 0


TRAINERS: dict[str, Callable[[argparse.Namespace, PreTokenizer | None], int]] = {
    "bpe": train_bpe,
    "wordpiece": train_wordpiece,
    "unigram": train_unigram,
}
"""Model name -> runner (``--model``)."""
