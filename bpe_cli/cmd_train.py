"""``bpe-explorer train``: train a tokenizer on files and save it in every format it fits.

Each FILE is one document (``--lines``: each line is one, as Hugging Face's ``train(files)``
reads them; ``-`` is standard input). ``--model`` picks a registered trainer
(:mod:`bpe_engine.training.registry`); its flags are made from its declared options
(:mod:`.train_options`). The corpus is read the way the trainer declares (``reads``): counted by the
engine's streaming counter (or counts files, ``--from-counts``), streamed as texts, or handed over
as files. The trainer is driven by the runner's own loop (:func:`~bpe_engine.training.runner.drive`),
with a progress bar on stderr (steps done / target, steps per second); it is saved by its own
``save``, and its notes (alphabet size, early stop, ...) are printed with the files written.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bpe_engine.errors import ConfigError
from bpe_engine.training.registry import TrainerSpec, model_choices, names, spec_for, specs

from .arg_types import vocab_size
from .corpus_input import add_corpus_options, counts_for_training
from .output import Throttle, say, stderr_console, stdout_console, training_progress
from .train_options import add_trainer_options, config_from_args, one_of


def register(subparsers: Any) -> None:
    models = model_choices()
    parser = subparsers.add_parser(
        "train",
        help="train a tokenizer on text files",
        description="Train a tokenizer on FILE... and write it into --output in every format it fits (BPE: "
        "tokenizer.json, vocab.json, merges.txt and NAME.tiktoken for byte-level models; WordPiece: vocab.txt and "
        "tokenizer.json; Unigram: NAME.model and tokenizer.json). Models: "
        + "; ".join(f"{c.value}: {c.help}" for c in models),
    )
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="corpus files ('-' reads standard input), or counts files with --from-counts"
    )
    parser.add_argument("--vocab-size", type=vocab_size, required=True, metavar="N", help="target vocabulary size (1 to 1,000,000)")
    parser.add_argument("--output", "-o", required=True, metavar="DIR", help="directory to write the tokenizer into")
    parser.add_argument("--model", choices=names(), default=names()[0], help="the tokenizer model to train")
    parser.add_argument(
        "--from-counts",
        action="store_true",
        help="the FILEs are counts files (bpe-explorer count): train on their words, added up",
    )
    add_corpus_options(parser, pre_tokenizer_help="how text is cut into words before merging (default gpt2; 'regex' with --pattern)")
    parser.add_argument("--name", default=None, help="tokenizer name (default: the output directory's name)")
    from bpe_engine.training.presets import PRESETS

    parser.add_argument(
        "--preset", choices=[p.name for p in PRESETS], default=None,
        help="option values that belong together, for the options not given: " + "; ".join(f"{p.name}: {p.help}" for p in PRESETS),
    )
    add_trainer_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if "-" in args.files:
        import sys

        if sys.stdin is None:
            raise ConfigError("standard input is closed, but '-' asks to read the corpus from it; pass a file instead")
    spec = spec_for(args.model)
    if args.preset is not None:
        _apply_preset(args, spec)
    config = config_from_args(args, spec)
    out = _output_dir(args)
    training, config = _training(args, spec, config)
    steps, state, notes = _drive(training, spec)
    saved = spec.hook("save")(state, out, args.name or out.resolve().name, steps)
    _report(args.name or out.resolve().name, saved.facts, saved.written, [*notes, *saved.notes, *_pattern_notes(args, config)])
    return 0


def _apply_preset(args: argparse.Namespace, spec: TrainerSpec) -> None:
    """Fill the options the preset sets for this trainer, where the command line set none."""
    from bpe_engine.training.presets import preset

    from .train_options import dest_of

    for name, value in preset(args.preset).for_model(spec.name).items():
        option = spec.option(name)
        if option is not None and getattr(args, dest_of(option), None) is None:
            setattr(args, dest_of(option), value)


def _pattern_notes(args: argparse.Namespace, config: Any) -> list[str]:
    """Whether the pre-tokenizer cuts a script of the corpus apart (:mod:`bpe_engine.pretokenizer_fit`),
    judged on the start of the corpus files (standard input, pipes and counts files are not read again)."""
    from bpe_engine.pretokenizer_fit import SAMPLE_CHARS, pattern_warning
    from bpe_engine.pretokenizers import PreTokenizer

    front = config.front_end  # every config declares its front end (None: the trainer splits lines itself)
    if args.from_counts or not isinstance(front, PreTokenizer):
        return []
    sample, left = [], SAMPLE_CHARS
    for name in args.files:
        if name == "-" or left <= 0 or not Path(name).is_file():
            continue  # a pipe or a device was read once already: opening it again would wait for a writer
        try:
            with open(name, encoding="utf-8", errors="replace") as handle:
                sample.append(handle.read(left))
        except OSError:
            continue
        left -= len(sample[-1])
    warning = pattern_warning(front, "\n".join(sample))
    return [warning] if warning else []


def _training(args: argparse.Namespace, spec: TrainerSpec, config: Any) -> tuple[Any, Any]:
    """The trainer over the corpus, read the way ``spec`` declares (and the config, which a counts
    file may settle: it was counted with its own pre-tokenizer, level and specials)."""
    from bpe_engine.pretokenizers import PreTokenizer
    from bpe_engine.training.protocol import TrainingCorpus

    make = spec.hook("training")
    if args.from_counts and spec.reads != "counts":
        counting = one_of([s.name for s in specs() if s.reads == "counts"])
        raise ConfigError(f"--from-counts trains --model {counting}; --model {spec.name} reads its corpus itself")
    if spec.reads == "counts":
        counts, corpus = counts_for_training(args, config.front_end, config.byte_level)  # files streamed, or counts files added up
        config = spec.hook("with_counts_settings")(config, corpus.pre_tokenizer, corpus.byte_level, corpus.specials)
        return make(config, TrainingCorpus(counts=counts)), config
    if spec.reads == "texts":
        from bpe_engine.corpus import stream_texts
        from bpe_engine.corpus.blocks import CutRule

        # Streamed: a front end that is no pre-tokenizer (BERT's) gives the same words for text cut
        # after a newline (whitespace, where its normaliser keeps nothing across); a pre-tokenizer
        # is cut only where it says it may be.
        front = config.front_end
        named = isinstance(front, PreTokenizer)
        rule = CutRule.for_job(front, (), lines=args.lines) if named else CutRule(lines=True, spaces=False)
        texts = stream_texts(args.files, rule, lines=args.lines and named)
        with stderr_console().status("reading and counting words...", spinner="dots"):
            return make(config, TrainingCorpus(texts=texts)), config
    if "-" in args.files:
        raise ConfigError(f"--model {spec.name} reads files (it reads its input twice); save standard input to a file first")
    return make(config, TrainingCorpus(files=list(args.files), memory_limit=args.memory_limit)), config


def _drive(training: Any, spec: TrainerSpec) -> tuple[list[Any], Any, list[str]]:
    """Run ``training`` through the runner's loop with a progress bar on stderr: its steps (each
    with its why, saved beside the model), its model state and its notes."""
    from bpe_engine.training.registry import step_kind
    from bpe_engine.training.runner import Finished, Started, Steps, drive

    steps: list[Any] = []
    throttle = Throttle()
    state, notes = None, list(training.notes)
    with training_progress(stderr_console(), spec.unit) as progress:
        task = progress.add_task(spec.step_kinds[0].doing, total=None)
        for event in drive(training):
            if isinstance(event, Started):
                progress.update(task, total=event.target or None)
            elif isinstance(event, Steps):
                steps.extend(event.steps)
                if throttle.ready() or not event.steps:
                    label = step_kind(steps[-1].kind).doing if steps else "training"
                    progress.update(task, description=label, completed=event.done, total=max(event.target, event.done))
            elif isinstance(event, Finished):
                state, notes = event.model, list(event.notes)
        last = step_kind(steps[-1].kind).doing if steps else spec.step_kinds[0].doing
        progress.update(task, description=last, completed=len(steps), total=max(len(steps), 1))
    assert state is not None  # drive ends with Finished when nothing cancels it
    return steps, state, notes


def _output_dir(args: argparse.Namespace) -> Path:
    """``--output``, checked before any training: a save replaces the directory as a whole, so it
    must be new, empty or an earlier save (never a folder of the user's own files)."""
    from bpe_engine.formats.saved_dir import check_save_target

    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--output {out} exists and is not a directory")
    check_save_target(out)
    return out


def _report(name: str, facts: str, written: list[Path], notes: list[str]) -> None:
    """What was trained (``facts``: its size and steps) and written; names and paths in visible
    form (they may hold anything)."""
    console = stdout_console()
    say(console, f"trained {name!r}: {facts}")
    for path in written:
        say(console, f"  wrote {path}")
    for note in notes:
        say(console, f"note: {note}", "yellow")


__all__ = ["register", "run"]
