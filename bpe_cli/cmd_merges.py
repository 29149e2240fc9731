"""``bpe-explorer merges``: a tokenizer's merges in training order, and why each won.

Merges are numbered from 1, as in the app (merge 1 is the first merge; its rank in merges.txt is
0). Each row: the number, the pair, the token it makes (and its id), and -- for a directory written
by ``bpe-explorer train`` or the app, which keeps its training log (training.jsonl) -- the count or
score that chose it and a tie mark (``=``) when it won a tie. A WordPiece directory lists its merges
from that log (vocab.txt keeps none); a model with no merges says why it has none.

``--json`` prints one object per merge: ``merge`` (from 1), ``rank`` (from 0, the line of
merges.txt), ``left``, ``right`` and ``new`` exactly as the model spells them (``Ġthe``, ``lo</w>``,
``##ing``), ``id``, ``count`` (or ``null``), ``why`` (the count or score, the runner-up, the tied
pairs and the rule; ``null`` when not kept) and the new token's ``text`` (exact, or ``null`` when its
bytes are not whole UTF-8) and ``bytes`` (hex).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bpe_engine.errors import ConfigError
from bpe_engine.explore.step_rows import TIE_MARK
from bpe_engine.formats import load_merge_counts
from bpe_engine.formats.training_log import read_training_log

from .arg_types import non_negative
from .output import model_token_label, open_tokenizer, print_json, say, stdout_console, token_json_fields
from .paged_table import Cell, PagedTable


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "merges",
        help="list a tokenizer's merges and why each won",
        description="List the merges of a saved tokenizer directory, file or reference name, in training order "
        "(numbered from 1), with the count or score that chose each when the directory keeps its training log.",
    )
    parser.add_argument("tokenizer", metavar="DIR|NAME|FILE", help="a directory written by 'train', a file or a reference name")
    parser.add_argument("--limit", type=non_negative, default=None, metavar="N", help="show only the first N merges")
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per line: merge (from 1), rank (from 0), left, right, new (model spelling), id, "
        "count, why, text (exact or null), bytes (hex)",
    )
    parser.set_defaults(func=run)


@dataclass(frozen=True, slots=True)
class MergeRow:
    rank: int
    left: str
    right: str
    new: str
    id: int | None
    count: int | None
    score: float | None = None
    why: dict[str, Any] | None = None


def merge_rows(tokenizer: Any, log: list[dict[str, Any]] | None, counts: list[int] | None, limit: int | None) -> Iterator[MergeRow]:
    """The merges in training order: from the training log when the directory keeps one (every
    merge of the run, WordPiece's too), else from the model's merge list (counts where known)."""
    vocab = tokenizer.vocab if tokenizer.capabilities.replays_merges or tokenizer.capabilities.family == "wordpiece" else {}
    if log is not None:
        for record in log[:limit] if limit is not None else log:
            yield MergeRow(
                record["merge"] - 1, record["left"], record["right"], record["new"], vocab.get(record["new"]),
                record["count"], record.get("score"), record.get("why"),
            )
        return
    if not tokenizer.capabilities.replays_merges:
        raise ConfigError(no_merges_reason(tokenizer))
    merges = tokenizer.merges
    for rank, (left, right) in enumerate(merges[:limit] if limit is not None else merges):
        new = left + right
        count = counts[rank] if counts is not None and rank < len(counts) else None
        yield MergeRow(rank, left, right, new, vocab[new], count)


def no_merges_reason(tokenizer: Any) -> str:
    """Why ``tokenizer`` has no merges to list, in words a user can act on."""
    family, name = tokenizer.capabilities.family, tokenizer.name
    if family == "wordpiece":
        return (
            f"{name!r} is WordPiece: its vocab.txt lists the vocabulary, not the merges that built it; a model "
            "trained by 'bpe-explorer train --model wordpiece' (or saved from the app) keeps them in training.jsonl"
        )
    if family == "unigram":
        return (
            f"{name!r} is a Unigram model: its pieces come from pruning a seed vocabulary, not from merges "
            "(a model trained here keeps its seeds, EM steps and pruning rounds in training.jsonl; the app steps through them)"
        )
    return f"tokenizer {name!r} has no merge list (it is not a BPE model)"


def run(args: argparse.Namespace) -> int:
    """Print row by row: a rich ``Table`` measured all of cl100k's 100,000 merges before its first
    line (144 s, 577 MB); :class:`PagedTable` keeps one page of rows."""
    tokenizer = open_tokenizer(args.tokenizer)
    path = Path(args.tokenizer)
    # a Unigram directory's training.jsonl holds its steps, not merges (bpe_engine.formats.unigram_log)
    log = read_training_log(path) if path.is_dir() and tokenizer.capabilities.family != "unigram" else None
    counts = load_merge_counts(path) if path.is_dir() and log is None else None
    rows = merge_rows(tokenizer, log, counts, args.limit)
    byte_level = tokenizer.capabilities.byte_level
    if args.json:
        for row in rows:
            print_json(
                {
                    "merge": row.rank + 1, "rank": row.rank, "left": row.left, "right": row.right, "new": row.new,
                    "id": row.id, "count": row.count, **({"score": row.score} if row.score is not None else {}),
                    "why": row.why, **token_json_fields(_bytes_of(tokenizer, row)),
                }
            )
        return 0
    console = stdout_console()
    scored = log is not None and any("score" in r for r in log[:1])
    known = log is not None or counts is not None
    columns = ["#", "left", "right", "new token", "id", *(["score"] if scored else []), *(["count"] if known else [])]
    table = PagedTable(console, columns, right=("#", "id", "score", "count"), gap=" │ ")
    shown = 0
    for row in rows:
        tie = TIE_MARK if row.why is not None and row.why.get("tied_total") else ""
        cells: list[Cell] = [
            f"{row.rank + 1:,}",
            model_token_label(row.left, byte_level=byte_level),
            model_token_label(row.right, byte_level=byte_level),
            (model_token_label(row.new, byte_level=byte_level), "bold"),
            "" if row.id is None else str(row.id),
        ]
        if scored:
            cells.append("" if row.score is None else f"{row.score:.4g}{tie}")
        if known:
            cells.append("" if row.count is None else f"{row.count:,}{'' if scored else tie}")
        table.add_row(cells)
        shown += 1
    table.close()
    total = len(log) if log is not None else len(tokenizer.merges)
    summary = f"{shown:,} of {total:,}" if shown != total else f"{total:,}"
    ties = " (= won a tie: --json says which pairs tied and the rule that chose)" if log is not None else ""
    say(console, f"{summary} merges ({tokenizer.name}){ties}", "dim")
    return 0


def _bytes_of(tokenizer: Any, row: MergeRow) -> bytes:
    if row.id is not None:
        return tokenizer.token_bytes(row.id)
    surface = row.new[2:] if row.new.startswith("##") else row.new  # a WordPiece token no longer in the vocabulary
    return surface.encode("utf-8")


__all__ = ["MergeRow", "merge_rows", "no_merges_reason", "register", "run"]
