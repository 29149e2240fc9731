"""``bpe-explorer merges``: the merge list of a tokenizer, in rank order.

Each row: rank, the pair, the token it makes (and its id), and the pair's count when it was
merged -- known for directories written by ``bpe-explorer train``, which keeps the counts.

``--json`` prints one object per merge: ``rank``, ``left``, ``right`` and ``new`` exactly as the
model spells them (``Ġthe``, ``lo</w>``: the strings of merges.txt and vocab.json), ``id``,
``count`` (or ``null``), and the new token's ``text`` (exact, or ``null`` when its bytes are not
whole UTF-8) and ``bytes`` (hex).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bpe_engine.errors import ConfigError
from bpe_engine.formats import load_merge_counts

from .arg_types import non_negative
from .output import model_token_label, open_tokenizer, print_json, say, stdout_console, token_json_fields
from .paged_table import Cell, PagedTable


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "merges",
        help="list a tokenizer's merges",
        description="List the merges of a saved tokenizer directory, file or reference name, in rank order.",
    )
    parser.add_argument("tokenizer", metavar="DIR|NAME|FILE", help="a directory written by 'train', a file or a reference name")
    parser.add_argument("--limit", type=non_negative, default=None, metavar="N", help="show only the first N merges")
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per line: rank, left, right, new (model spelling), id, count, text (exact or null), bytes (hex)",
    )
    parser.set_defaults(func=run)


MergeRow = tuple[int, str, str, str, int, "int | None"]


def merge_rows(tokenizer: Any, counts: list[int] | None, limit: int | None) -> Iterator[MergeRow]:
    """(rank, left, right, new, new id, count) in the model alphabet, one merge at a time."""
    if not tokenizer.capabilities.replays_merges:
        raise ConfigError(f"tokenizer {tokenizer.name!r} has no merge list (it is not a BPE model)")
    merges, vocab = tokenizer.merges, tokenizer.vocab
    for rank, (left, right) in enumerate(merges[:limit] if limit is not None else merges):
        new = left + right
        count = counts[rank] if counts is not None and rank < len(counts) else None
        yield rank, left, right, new, vocab[new], count


def run(args: argparse.Namespace) -> int:
    """Print row by row: a rich ``Table`` measured all of cl100k's 100,000 merges before its first
    line (144 s, 577 MB); :class:`PagedTable` keeps one page of rows."""
    tokenizer = open_tokenizer(args.tokenizer)
    path = Path(args.tokenizer)
    counts = load_merge_counts(path) if path.is_dir() else None
    rows = merge_rows(tokenizer, counts, args.limit)
    byte_level = tokenizer.capabilities.byte_level
    if args.json:
        for rank, left, right, new, new_id, count in rows:
            print_json(
                {
                    "rank": rank,
                    "left": left,
                    "right": right,
                    "new": new,
                    "id": new_id,
                    "count": count,
                    **token_json_fields(tokenizer.token_bytes(new_id)),
                }
            )
        return 0
    console = stdout_console()
    columns = ["rank", "left", "right", "new token", "id", *(["count"] if counts is not None else [])]
    table = PagedTable(console, columns, right=("rank", "id", "count"), gap=" │ ")
    shown = 0
    for rank, left, right, new, new_id, count in rows:
        cells: list[Cell] = [
            str(rank),
            model_token_label(left, byte_level=byte_level),
            model_token_label(right, byte_level=byte_level),
            (model_token_label(new, byte_level=byte_level), "bold"),
            str(new_id),
        ]
        if counts is not None:
            cells.append("" if count is None else f"{count:,}")
        table.add_row(cells)
        shown += 1
    table.close()
    total = len(tokenizer.merges)
    summary = f"{shown:,} of {total:,}" if shown != total else f"{total:,}"
    say(console, f"{summary} merges ({tokenizer.name})", "dim")
    return 0
