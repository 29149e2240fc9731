"""``bpe-explorer overlap A B [--corpus FILE...] [--json]``: what two vocabularies share.

By bytes (Jaccard over the two vocabularies, specials left out) and, with ``--corpus``, weighted by
what each tokenizer spends on those files (:mod:`bpe_engine.metrics.overlap`), with the tokens each
used most that the other lacks.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.table import Table

from bpe_engine.display import decode_bytes_visibly
from bpe_engine.metrics import Overlap, vocabulary_overlap
from bpe_engine.core.text_files import read_text_file

from .output import open_tokenizer, print_json, safe_text, say, stdout_console, token_json_fields


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "overlap",
        help="how much two vocabularies share, by bytes and weighted by a corpus",
        description="Tokens two tokenizers share, compared by the bytes they stand for (Jaccard); with --corpus, "
        "weighted by how often each tokenizer uses them on those files.",
    )
    parser.add_argument("a", metavar="A", help="a tokenizer (built-in name, hf:ORG/NAME, file or directory)")
    parser.add_argument("b", metavar="B", help="another tokenizer")
    parser.add_argument("--corpus", nargs="+", default=[], metavar="FILE", help="UTF-8 text files to weight the overlap by")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    a, b = open_tokenizer(args.a), open_tokenizer(args.b)
    texts = [read_text_file(path) for path in args.corpus]
    result = vocabulary_overlap(a, b, texts)
    if args.json:
        print_json(overlap_json(result, args.corpus))
        return 0
    console = stdout_console()
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row(safe_text(f"tokens of {result.a}"), f"{result.a_size:,}")
    table.add_row(safe_text(f"tokens of {result.b}"), f"{result.b_size:,}")
    table.add_row("shared (same bytes)", f"{result.shared:,}")
    table.add_row("Jaccard", f"{result.jaccard:.4f}")
    if texts:
        table.add_row("weighted Jaccard (corpus)", _num(result.weighted_jaccard))
        table.add_row(safe_text(f"{result.a}'s tokens that {result.b} has"), _pct(result.a_in_b))
        table.add_row(safe_text(f"{result.b}'s tokens that {result.a} has"), _pct(result.b_in_a))
    console.print(table)
    for name, other, only in ((result.a, result.b, result.a_only_frequent), (result.b, result.a, result.b_only_frequent)):
        if only:
            shown = ", ".join(f"{decode_bytes_visibly(data)!r} ×{n:,}" for data, n in only)
            say(console, f"{name} uses most, {other} lacks: {shown}")
    return 0


def overlap_json(result: Overlap, files: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "a": result.a,
        "b": result.b,
        "a_tokens": result.a_size,
        "b_tokens": result.b_size,
        "shared": result.shared,
        "jaccard": result.jaccard,
    }
    if files:
        out["corpus"] = {
            "files": files,
            "weighted_jaccard": result.weighted_jaccard,
            "a_in_b": result.a_in_b,
            "b_in_a": result.b_in_a,
            "a_only_frequent": [{**token_json_fields(data), "count": n} for data, n in result.a_only_frequent],
            "b_only_frequent": [{**token_json_fields(data), "count": n} for data, n in result.b_only_frequent],
        }
    return out


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.4f}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.2%}"


__all__ = ["overlap_json", "register", "run"]
