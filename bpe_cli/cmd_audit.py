"""``bpe-explorer audit TOKENIZER [--corpus FILE...] [--json]``: is this vocabulary healthy?

Every id is decoded alone and encoded again (:mod:`bpe_engine.audit.vocabulary`, Land & Bartolo
2024): the table gives each category's size, then the tokens the encoder never gives from their own
text, with the stage that keeps them away and a longer text that does produce them, when one of a
few probes finds it. With ``--corpus``: the ordinary tokens the files never use, those they only
hold inside longer tokens, and the vocabulary in use as the corpus grows.

``--json`` prints one object: ``tokenizer``, ``vocab_size``, ``counts`` (exactly the seven category
keys), ``ids`` (each category's ids), ``unreachable`` (up to ``--explain`` explained tokens),
``notes``, and ``corpus`` with ``--corpus``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import JustifyMethod
from rich.table import Table

from bpe_engine.audit import CATEGORIES, CorpusUse, VocabularyAudit, audit_vocabulary, corpus_use, explain_unreachable
from bpe_engine.audit.unreachable import Unreachable, shown
from bpe_engine.choices import AUDIT_CATEGORIES
from bpe_engine.core.text_files import read_text_file

from .arg_types import non_negative
from .output import open_tokenizer, print_json, safe_text, say, stderr_console, stdout_console, token_json_fields

SHOWN_IDS = 20


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "audit",
        help="audit a vocabulary: tokens the encoder never produces, and what a corpus uses",
        description="Decode every token alone and encode its text again (Land & Bartolo 2024): which tokens come "
        "back, which are not whole UTF-8, which the encoder never produces from their own text and why. With "
        "--corpus: tokens never used, tokens only seen inside longer ones, and the vocabulary used as the corpus grows.",
    )
    parser.add_argument("tokenizer", metavar="TOKENIZER", help="a built-in name, hf:ORG/NAME, or a tokenizer file/directory")
    parser.add_argument("--corpus", nargs="+", metavar="FILE", default=[], help="UTF-8 text files to measure the vocabulary's use on")
    parser.add_argument("--json", action="store_true", help="print one JSON object (counts, ids per category, explanations)")
    parser.add_argument(
        "--explain", type=non_negative, default=100, metavar="N",
        help="explain at most N unreachable tokens (default 100; the id lists are always complete)",
    )  # fmt: skip
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    tokenizer = open_tokenizer(args.tokenizer)
    texts = [read_text_file(path) for path in args.corpus]
    audit = audit_vocabulary(tokenizer, progress=_progress("ids"))
    unreachable = [*audit.ids["unreachable_single"], *audit.ids["unreachable_multi"]]
    explained = [explain_unreachable(tokenizer, i, audit.encodes_to[i]) for i in sorted(unreachable)[: args.explain]]
    use = corpus_use(tokenizer, texts) if texts else None
    if args.json:
        print_json(audit_json(tokenizer, audit, explained, use, args.corpus))
        return 0
    console = stdout_console()
    say(console, f"{tokenizer.name}: {audit.vocab_size:,} ids, each decoded alone and encoded again (Land & Bartolo 2024)", "bold")
    console.print(_counts_table(audit))
    for message in audit.notes:
        say(console, f"note: {message}", "yellow")
    if explained:
        say(console, f"never produced from their own text: {len(unreachable):,}" + (f" (first {len(explained)} explained)" if len(explained) < len(unreachable) else ""), "bold")
        console.print(_unreachable_table(tokenizer, explained))
    if use is not None:
        _print_use(console, tokenizer, use, len(texts))
    return 0


def audit_json(tokenizer: Any, audit: VocabularyAudit, explained: list[Unreachable], use: CorpusUse | None, files: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "tokenizer": tokenizer.name,
        "vocab_size": audit.vocab_size,
        "counts": audit.counts,
        "ids": {c: list(audit.ids[c]) for c in CATEGORIES},
        "unreachable": [
            {
                "id": u.id, **token_json_fields(tokenizer.token_bytes(u.id)), "encodes_to": list(u.encodes_to),
                "stage": u.stage, "reason": u.reason, "pieces": list(u.pieces), "context": u.context,
            }
            for u in explained
        ],
        "notes": list(audit.notes),
    }  # fmt: skip
    if use is not None:
        out["corpus"] = {
            "files": files,
            "characters": use.characters,
            "tokens": use.tokens,
            "vocabulary": use.vocabulary,
            "used": use.used,
            "never_used": list(use.never_used),
            "only_inside": list(use.only_inside),
            "growth": [{"characters": g.characters, "tokens": g.tokens, "distinct": g.distinct, "share": g.share} for g in use.growth],
        }
    return out


def _counts_table(audit: VocabularyAudit) -> Table:
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    columns: tuple[tuple[str, JustifyMethod], ...] = (("category", "left"), ("tokens", "right"), ("share", "right"), ("what", "left"))
    for name, justify in columns:
        table.add_column(name, justify=justify)
    counts = audit.counts
    for choice in AUDIT_CATEGORIES:
        share = counts[choice.value] / audit.vocab_size if audit.vocab_size else 0.0
        table.add_row(choice.value, f"{counts[choice.value]:,}", f"{share:.2%}", safe_text(choice.help))
    return table


def _unreachable_table(tokenizer: Any, explained: list[Unreachable]) -> Table:
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    for name in ("id", "token", "encodes to", "why", "made inside"):
        table.add_column(name, overflow="fold")
    for u in explained:
        context = safe_text(repr(u.context)) if u.context is not None else safe_text("–", "dim")
        got = " ".join(shown(tokenizer, i) for i in u.encodes_to)
        table.add_row(str(u.id), safe_text(shown(tokenizer, u.id)), safe_text(got), safe_text(u.reason), context)
    return table


def _print_use(console: Any, tokenizer: Any, use: CorpusUse, files: int) -> None:
    say(console, f"corpus: {files} file(s), {use.characters:,} characters, {use.tokens:,} tokens", "bold")
    share = use.used / use.vocabulary if use.vocabulary else 0.0
    say(console, f"ordinary tokens used: {use.used:,} of {use.vocabulary:,} ({share:.2%}); never used: {len(use.never_used):,}")
    inside = ", ".join(shown(tokenizer, i) for i in use.only_inside[:SHOWN_IDS])
    more = f", … ({len(use.only_inside):,} in all)" if len(use.only_inside) > SHOWN_IDS else ""
    say(console, f"only seen inside longer tokens: {len(use.only_inside):,}" + (f": {inside}{more}" if inside else ""))
    table = Table(title="vocabulary used as the corpus grows", show_edge=False, pad_edge=False, header_style="bold")
    for name in ("characters", "tokens", "distinct", "share"):
        table.add_column(name, justify="right")
    for g in use.growth:
        table.add_row(f"{g.characters:,}", f"{g.tokens:,}", f"{g.distinct:,}", f"{g.share:.2%}")
    console.print(table)


def _progress(unit: str) -> Any:
    """A quiet progress callback: a line on a terminal's stderr, nothing when stderr is not one."""
    if sys.stderr is None or not sys.stderr.isatty():
        return None
    console = stderr_console()

    def show(done: int, total: int) -> None:
        end = "\n" if done >= total else "\r"
        console.file.write(f"audit: {done:,}/{total:,} {unit}{end}")
        console.file.flush()

    return show


__all__ = ["audit_json", "register", "run"]
