"""``bpe-explorer compare``: one text through several tokenizers, statistics and aligned rows.

The table gives each row's token count and ratios; below it every row is drawn on the same
character axis (``│`` where a row cuts, ``▼`` where rows disagree, red where a character's bytes
are split between tokens). ``--json`` prints every row's tokens and statistics instead.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator
from typing import Any

from rich.console import Console, ConsoleOptions
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

from bpe_engine.compare import LEGEND, Comparison, compare, layout
from bpe_engine.compare.resolve import default_specs, parse_specs
from bpe_engine.display import visible_text
from bpe_engine.types import UNKNOWN_ID
from bpe_styles import SEGMENT_STYLES  # the app's colours too: plain data, no Textual

from .cmd_encode import add_special_mode_argument, read_input
from .output import ADDED_TOKENS_RULE, note_special_text, open_tokenizer, print_json, safe_text, say, stdout_console, token_json_fields

EXIT_ALL_ROWS_FAILED = 1



def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="compare tokenizers on one text",
        description="Tokenize TEXT (or stdin with '-') with several tokenizers; show statistics and the "
        "rows aligned on one character axis.",
    )
    parser.add_argument(
        "--tokenizers",
        "-t",
        metavar="LIST",
        default=None,
        help="comma-separated: characters, words, wordpiece, any built-in name ('bpe-explorer models' lists them), "
        "hf:ORG/NAME, or tokenizer files/directories (default: characters,words,[bert-base-uncased,]gpt2,cl100k_base,"
        "o200k_base)",
    )
    parser.add_argument("--json", action="store_true", help="print every row's tokens and statistics as JSON")
    add_special_mode_argument(parser)
    parser.add_argument("--no-align", action="store_true", help="print the statistics table only")
    parser.add_argument("--width", type=int, default=None, help="columns for the aligned rows (default: terminal)")
    parser.add_argument("text", nargs="?", default="-", metavar="TEXT", help="text to compare, or '-' for stdin")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Exit 0 when at least one row encoded; 1 when every row failed (each error is printed)."""
    specs = parse_specs(args.tokenizers) if args.tokenizers is not None else default_specs()
    tokenizers = [open_tokenizer(s) for s in specs]
    text = read_input(args.text)
    result = compare(text, tokenizers, special_mode=args.special_mode)
    note_special_text(tokenizers, result.text, args.special_mode)
    status = EXIT_ALL_ROWS_FAILED if all(row.error is not None for row in result.rows) else 0
    if args.json:
        print_json(comparison_json(result))
        return status
    console = stdout_console()
    for message in result.notes:
        say(console, message, "yellow")
    console.print(stats_table(result))
    if any(row.stats is not None and row.stats.added_tokens for row in result.rows):
        console.print(Text(f"{ADDED_TOKENS_RULE}; +N: the tokens it added", style="dim"))
    for row in result.rows:
        if row.error is not None:
            line = safe_text(f"{row.name}: ", "bold red")
            line.append_text(safe_text(row.error, "red"))
            console.print(line)
    if any(row.error is not None for row in result.rows) and args.special_mode == "refuse":
        say(console, "(--special-mode special or --special-mode text encodes special-token text instead of refusing it)", "dim")
    if not args.no_align and status == 0:
        width = args.width or console.width
        label_width = max(len(visible_text(r.name)) for r in result.rows) + 1
        console.print(Text(LEGEND, style="dim"))
        console.print(AlignedView(result, max(width - label_width, 20), label_width), overflow="ignore", crop=False, no_wrap=True)
    if status:
        say(console, "every tokenizer failed on this text (see the errors above)", "bold red")
    return status


def stats_table(result: Comparison) -> Table:
    """One line per row: counts and ratios, or the row's error."""
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    for column in ("tokenizer", "tokens", "chars/tok", "bytes/tok", "tok/word", "partial", "UNK"):
        table.add_column(column, justify="left" if column == "tokenizer" else "right", no_wrap=True)
    for row in result.rows:
        name = safe_text(row.name, "bold")
        if row.stats is None:
            table.add_row(name, Text("error", style="red"), "", "", "", "", "")
            continue
        s = row.stats
        table.add_row(
            name,
            Text(f"{s.tokens:,}" + (f" +{s.added_tokens}" if s.added_tokens else "")),
            Text(_num(s.chars_per_token)),
            Text(_num(s.bytes_per_token)),
            Text(_num(s.tokens_per_word)),
            Text(_pct(s.partial_share)),
            Text(_pct(s.unk_rate)),
        )
    return table


class AlignedView:
    """The layout blocks as one rich renderable: per block the marker line, each row prefixed by
    its name (the whole row line bold, as a bold ``Text`` with styled parts), and a blank line.

    It yields rich ``Segment``s straight from the layout's (text, style key) pairs, with the styles
    parsed once: a 36 KB text makes ~400,000 segments, and building and rendering a ``Text`` per
    line (spans, style stacks, re-parsed style strings) took 21 s where this takes a fraction of
    the encoding. The bytes written are the same (``tests/test_explore_compare_cli.py``)."""

    FAILED = "(failed: see the error above)"

    def __init__(self, result: Comparison, width: int, label_width: int) -> None:
        self.result, self.width, self.label_width = result, width, label_width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        styles = {key: console.get_style(spec) for key, spec in SEGMENT_STYLES.items() if spec}
        bold = console.get_style("bold")
        on_bold = {key: bold + style for key, style in styles.items()}
        width, newline = self.label_width, Segment.line()
        labels = [visible_text(visible_text(row.name).ljust(width)[:width]) for row in self.result.rows]
        for block in layout(self.result, self.width):
            yield from _spans(" " * width, None, block.marker, styles)
            yield newline
            for label, segs in zip(labels, block.rows, strict=True):
                if segs is None:
                    yield from _spans(label, bold, [(self.FAILED, "failed")], {"failed": bold + console.get_style("red")})
                else:
                    yield from _spans(label, bold, segs, on_bold)
                yield newline
            yield newline


def _spans(head: str, base: Style | None, segs: Iterable[tuple[str, str]], styles: dict[str, Style]) -> Iterator[Segment]:
    """``head`` then ``segs`` as rich renders a ``Text(head, style=base)`` with each segment
    appended in its style: a key without a style adds no span, so its text runs on in the base
    style, joined with its unstyled neighbours into one segment."""
    run = head
    for text, key in segs:
        style = styles.get(key)
        if style is None:
            run += text
            continue
        if run:
            yield Segment(run, base)
            run = ""
        if text:
            yield Segment(text, style)
    if run:
        yield Segment(run, base)


def comparison_json(result: Comparison) -> dict[str, Any]:
    """Every row's tokens and statistics. Per token: ``id`` (``null`` for an unknown piece without
    one), ``token`` (model form), ``text``/``bytes`` of the input it covers (exact text or ``null``
    when it is part of a character, and hex; as in ``encode --json``), spans and flags."""
    raw = result.text.encode("utf-8")
    rows = []
    for row in result.rows:
        entry: dict[str, Any] = {"name": row.name, "error": row.error, "stats": None, "tokens": [], "notes": []}
        if row.encoding is not None and row.stats is not None and row.alignment is not None:
            enc = row.encoding
            entry["stats"] = row.stats.as_dict()
            entry["notes"] = list(enc.notes)
            entry["tokens"] = [
                {
                    "id": None if tid == UNKNOWN_ID else tid,
                    "token": token,
                    **token_json_fields(raw[s:e]),
                    "byte_span": [s, e],
                    "char_span": list(result.index.char_span(s, e)),
                    "partial": partial,
                    "special": special,
                    "unknown": unknown,
                }
                for tid, token, (s, e), partial, special, unknown in zip(
                    enc.ids, enc.tokens, enc.byte_spans, row.partial, enc.special, enc.unknown, strict=True
                )
            ]
        rows.append(entry)
    return {
        "text": result.text,
        "special_mode": result.special_mode,
        "notes": list(result.notes),
        "disagreements": list(result.disagreements),
        "rows": rows,
    }


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"
