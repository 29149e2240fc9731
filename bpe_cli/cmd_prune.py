"""``bpe-explorer prune BASE --to N -o DIR [--corpus FILE...]``: cut a real tokenizer down to N ids.

Only leaves go (:mod:`bpe_engine.surgery.prune`): the base's unreachable tokens first, then the
least used on ``--corpus`` (without one, the last merged first); never a byte or a special. The
ids left are renumbered 0..N-1 in their order (``--keep-ids``: kept where they were, with holes,
which tokenizer.json, .tiktoken and vocab.json all allow), and ``surgery.json`` maps old id -> new.
"""

from __future__ import annotations

import argparse
from typing import Any

from bpe_engine.display import counted

from .arg_types import positive
from .cmd_extend import add_base_corpus_options, add_output_options, base_counts, open_base, output_dir, report_written, say_shorter_words
from .output import say, stderr_console, stdout_console


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "prune",
        help="remove tokens from a real tokenizer until N ids remain, every one still reachable",
        description="Prune BASE to N ids by removing leaves (tokens no remaining merge builds on): the "
        "base's unreachable tokens first, then the least used on --corpus (else the last merged first).",
    )
    parser.add_argument("base", metavar="BASE", help="the tokenizer to prune (a name, file or directory)")
    parser.add_argument("--to", type=positive, required=True, metavar="N", help="how many ids remain (specials included)")
    add_output_options(parser)
    parser.add_argument("--corpus", nargs="+", default=[], metavar="FILE", help="text that decides which tokens are used least")
    parser.add_argument("--keep-ids", action="store_true", help="keep every id where it was (holes) instead of renumbering")
    add_base_corpus_options(parser)
    parser.set_defaults(func=run, from_counts=False)


def run(args: argparse.Namespace) -> int:
    from bpe_engine.surgery.checks import surgery_checks
    from bpe_engine.surgery.prune import plan_prune, pruned_tokenizer
    from bpe_engine.surgery.save import save_changed

    out = output_dir(args)
    base = open_base(args.base)
    corpus = None
    if args.corpus:
        args.files = args.corpus
        corpus = base_counts(args, base)
    with stderr_console().status("choosing the leaves to remove...", spinner="dots"):
        plan = plan_prune(base, args.to, corpus)
    name = args.name or out.resolve().name
    tokenizer, id_map = pruned_tokenizer(base, plan.removed, name, keep_ids=args.keep_ids)
    written = save_changed(tokenizer, base, out, name=name, operation="prune", id_map=id_map)
    console = stdout_console()
    ids = "kept where they were (holes)" if args.keep_ids else f"renumbered 0-{len(id_map) - 1:,} in their order"
    say(console, f"pruned {base.name!r} into {name!r}: {counted(len(plan.removed), 'token')} removed, {len(id_map):,} ids left, {ids}")
    if plan.unreachable_removed:
        say(console, f"  {counted(plan.unreachable_removed, 'token')} removed were unreachable in {base.name!r}")
    for line in surgery_checks(base.tokenizer, tokenizer, corpus, id_map=id_map, unreachable_before=plan.unreachable_before).lines(base.name, name):
        say(console, f"  {line}")
    if corpus is not None:
        say_shorter_words(base.tokenizer, tokenizer, corpus)
    report_written(written, [] if args.keep_ids else ["surgery.json maps every old id to its new one (id_map) and lists the ids removed"])
    return 0
