"""``bpe-explorer inspect``: every token of a text down to its bytes.

One table line per token: id, the token's label, GPT-2 byte characters, bytes in hex, each
byte's UTF-8 role, the characters it covers and whether it holds only part of one. Tokens that
split a character are listed again as groups ("tokens 0-1 together make 한"). ``--stream``
replays an incremental UTF-8 decoder token by token; ``--why N`` prints token N's merge tree.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from rich.text import Text

from bpe_engine.bpe.merge_tree import merge_tree_for
from bpe_engine.core.merge_node import render_tree
from bpe_engine.core.text_index import TextIndex, clean_text
from bpe_engine.display import counted, token_label, visible_text
from bpe_engine.errors import ConfigError
from bpe_engine.explore.surfaces import merge_number
from bpe_engine.inspect import CharPiece, PartialGroup, TokenDetail, iter_stream_decode, iter_token_details, partial_groups
from bpe_engine.types import Encoding

from .cmd_encode import add_no_add_special_tokens_argument, add_special_mode_argument, read_input
from .output import note_special_text, open_tokenizer, print_json_stream, say, stdout_console, token_json_fields
from .paged_table import Cell, PagedTable

ROLE_SHORT = {"ascii": "A", "continuation": "C", "invalid": "X"}
ROLE_LEGEND = (
    "roles: A = ASCII, L2/L3/L4 = lead byte of a 2/3/4-byte character, C = continuation, X = never valid; "
    "partial: gN = group N, 1-2/3 U+D55C = bytes 1-2 of the 3 bytes of U+D55C"
)
DETAIL_COLUMNS = ("#", "id", "token", "byte chars", "bytes", "roles", "decoded", "chars", "partial")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "inspect",
        help="show every token of a text down to its bytes",
        description="Tokenize TEXT (or stdin with '-') and show each token's id, bytes, UTF-8 roles, "
        "character span and whether it holds only part of a character.",
    )
    parser.add_argument(
        "--tokenizer",
        "-t",
        required=True,
        metavar="NAME|DIR|FILE",
        help="characters, words, wordpiece, gpt2, p50k_base, cl100k_base, o200k_base, or a tokenizer file/directory",
    )
    parser.add_argument("--json", action="store_true", help="print the token details as JSON")
    add_special_mode_argument(parser)
    add_no_add_special_tokens_argument(parser)
    parser.add_argument("--stream", action="store_true", help="replay a streaming UTF-8 decoder token by token")
    parser.add_argument("--why", type=int, metavar="N", default=None, help="print the merge tree of token N (0-based)")
    parser.add_argument("text", nargs="?", default="-", metavar="TEXT", help="text to inspect, or '-' for stdin")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Encode once, then print token by token: time linear in the text, memory one page of rows
    (plus the encoding itself), however long the text is."""
    tokenizer = open_tokenizer(args.tokenizer)
    cleaned = clean_text(read_input(args.text))
    encoding = tokenizer.encode_detailed(cleaned.text, special_mode=args.special_mode, add_special_tokens=args.add_special_tokens)
    note_special_text([tokenizer], cleaned.text, args.special_mode)
    index = TextIndex(encoding.text)
    groups = partial_groups(encoding, index)
    n_tokens = len(encoding.ids)
    if args.why is not None and not 0 <= args.why < n_tokens:
        raise ConfigError(f"--why {args.why}: the text has {n_tokens} tokens (0..{n_tokens - 1})")
    notes = [*cleaned.notes, *encoding.notes]
    if args.json:
        print_json_stream(inspect_json_fields(tokenizer, encoding, index, groups, args, notes))
        return 0
    byte_level = tokenizer.capabilities.byte_level
    console = stdout_console()
    for message in notes:
        say(console, message, "yellow")
    table = PagedTable(console, DETAIL_COLUMNS, right=("#", "id"))
    why: TokenDetail | None = None
    for detail in iter_token_details(encoding, tokenizer, index):
        table.add_row(detail_cells(detail, byte_level))
        if detail.index == args.why:
            why = detail
    table.close()
    console.print(Text(ROLE_LEGEND, style="dim"))
    for start in range(0, len(groups), 2048):
        console.print(Text("\n").join(group_line(encoding, g) for g in groups[start : start + 2048]))
    say(
        console,
        f"{counted(n_tokens, 'token')}, {counted(index.n_chars, 'character')}, {counted(index.n_bytes, 'byte')} "
        f"({tokenizer.name}, special mode {args.special_mode})",
        "dim",
    )
    if args.stream:
        print_stream_table(console, iter_token_details(encoding, tokenizer, index))
    if why is not None:
        for line in tree_lines(tokenizer, why, byte_level):
            console.print(line)
    return 0


def detail_cells(d: TokenDetail, byte_level: bool) -> list[Cell]:
    """One row of the details table (every cell inert: visible forms, no markup)."""
    standalone = d.standalone
    decoded: Cell = visible_text(standalone) if standalone is not None else ("incomplete", "red")
    partial: list[tuple[str, str]] = [("; ".join(_piece_short(p) for p in d.pieces if not p.whole), "red")]
    if d.group is not None:
        partial.insert(0, (f"g{d.group} ", "yellow"))
    style = "bold #f9e2af" if d.special else "bold underline #fab387" if d.unknown else "bold"
    label = visible_text(d.token).replace(" ", "␣") if d.unknown else token_label(d.data, byte_level=byte_level)
    token = [(label, style)]
    if d.data_note:
        token.append((f" ({d.data_note})", "red"))
    return [
        str(d.index),
        "?" if d.id < 0 else str(d.id),
        token,
        visible_text(d.byte_chars),
        d.hex,
        " ".join(_role(r.kind, r.seq_len) for r in d.roles),
        decoded,
        f"{d.char_span[0]}-{d.char_span[1]}",
        partial,
    ]


def group_line(encoding: Encoding, g: PartialGroup) -> Text:
    chars = encoding.text[g.chars[0] : g.chars[1]]
    line = Text(f"tokens {g.tokens[0]}-{g.tokens[1] - 1} together make ", style="yellow")
    line.append(visible_text(chars), style="bold")
    line.append(f" ({' '.join(f'U+{ord(c):04X}' for c in chars)})", style="dim")
    return line


def print_stream_table(console: Any, details: Iterator[TokenDetail]) -> None:
    """One line per token: bytes fed, text that completed, what the decoder still waits for."""
    table = PagedTable(console, ("#", "bytes in", "emitted", "decoder"), title="streaming decode")
    for step in iter_stream_decode(d.data for d in details):
        index = "end" if step.index < 0 else str(step.index)
        emitted = (visible_text(step.emitted), "bold green")
        status = (step.status, "yellow" if step.waiting else "")
        table.add_row([index, step.data.hex(" ").upper(), emitted, status])
    table.close()


def tree_lines(tokenizer: Any, detail: TokenDetail, byte_level: bool) -> list[Text]:
    node = merge_tree_for(tokenizer, detail.id, special=detail.special)
    if node is None:
        return [Text(f"token {detail.index} has no merge tree: {tokenizer.name} is not built from merges", style="dim")]
    lines = [Text(f"why token {detail.index}:", style="bold")]
    for prefix, n in render_tree(node):
        line = Text(prefix, style="dim")
        line.append(token_label(n.data, byte_level=byte_level), style="bold")
        rank = f"  {merge_number(n.rank or 0)}" if n.kind == "merge" else f"  {n.kind}"
        line.append(rank, style="dim")
        lines.append(line)
    return lines


def inspect_json_fields(
    tokenizer: Any, encoding: Encoding, index: TextIndex, groups: list[PartialGroup], args: argparse.Namespace, notes: list[str]
) -> list[tuple[str, Any]]:
    """The ``--json`` object's fields; ``tokens`` and ``stream`` are iterators, streamed as arrays.

    Per token: ``text`` is the token's exact text or ``null`` when its bytes are not whole UTF-8,
    ``bytes`` its bytes in hex (see ``encode --json``); ``unknown`` marks an unknown piece."""
    fields: list[tuple[str, Any]] = [
        ("tokenizer", tokenizer.name),
        ("text", encoding.text),
        ("special_mode", args.special_mode),
        ("notes", notes),
        ("tokens", (detail_json(d) for d in iter_token_details(encoding, tokenizer, index))),
        ("groups", [{"tokens": list(g.tokens), "chars": list(g.chars), "byte_span": list(g.byte_span)} for g in groups]),
    ]
    if args.stream:
        steps = iter_stream_decode(d.data for d in iter_token_details(encoding, tokenizer, index))
        fields.append(
            (
                "stream",
                (
                    {"index": s.index, "bytes": s.data.hex(), "emitted": s.emitted, "pending": s.pending.hex(), "status": s.status}
                    for s in steps
                ),
            )
        )
    return fields


def detail_json(d: TokenDetail) -> dict[str, Any]:
    return {
        "index": d.index,
        "id": None if d.id < 0 else d.id,
        "token": d.token,
        **token_json_fields(d.data),
        "byte_chars": d.byte_chars,
        "hex": d.hex,
        "roles": [r.label for r in d.roles],
        "standalone": d.standalone,
        "byte_span": list(d.byte_span),
        "char_span": list(d.char_span),
        "partial": d.partial,
        "pieces": [p.describe() for p in d.pieces],
        "group": d.group,
        "special": d.special,
        "unknown": d.unknown,
        "note": d.data_note or None,
    }


def _piece_short(piece: CharPiece) -> str:
    """``1-2/3 U+D55C``: bytes 1 to 2 of the 3 bytes of U+D55C (the legend explains it)."""
    span = f"{piece.byte_from + 1}" if piece.byte_to - piece.byte_from == 1 else f"{piece.byte_from + 1}-{piece.byte_to}"
    return f"{span}/{piece.char_len} {piece.codepoint}"


def _role(kind: str, seq_len: int) -> str:
    return f"L{seq_len}" if kind == "lead" else ROLE_SHORT[kind]
