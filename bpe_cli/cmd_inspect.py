"""``bpe-explorer inspect``: every token of a text down to its bytes.

One table line per token: id, the token's label, GPT-2 byte characters, bytes in hex, each
byte's UTF-8 role, the characters it covers and whether it holds only part of one. Tokens that
split a character are listed again as groups ("tokens 0-1 together make 한"). ``--stream``
replays an incremental UTF-8 decoder token by token; ``--why N`` prints token N's merge tree.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.table import Table
from rich.text import Text

from bpe_engine.compare.resolve import resolve_tokenizer
from bpe_engine.display import decode_bytes_visibly, token_label, visible_text
from bpe_engine.errors import ConfigError
from bpe_engine.inspect import CharPiece, TextIndex, TokenDetail, clean_text, partial_groups, stream_decode, token_details
from bpe_engine.merge_tree import merge_tree_for, render_tree

from .cmd_encode import SPECIAL_MODES, read_input
from .output import print_json, safe_text, stdout_console

ROLE_SHORT = {"ascii": "A", "continuation": "C", "invalid": "X"}
ROLE_LEGEND = (
    "roles: A = ASCII, L2/L3/L4 = lead byte of a 2/3/4-byte character, C = continuation, X = never valid; "
    "partial: gN = group N, 1-2/3 U+D55C = bytes 1-2 of the 3 bytes of U+D55C"
)


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
    parser.add_argument("--special-mode", choices=SPECIAL_MODES, default="refuse", help="refuse, text or special")
    parser.add_argument("--stream", action="store_true", help="replay a streaming UTF-8 decoder token by token")
    parser.add_argument("--why", type=int, metavar="N", default=None, help="print the merge tree of token N (0-based)")
    parser.add_argument("text", nargs="?", default="-", metavar="TEXT", help="text to inspect, or '-' for stdin")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    tokenizer = resolve_tokenizer(args.tokenizer)
    cleaned = clean_text(read_input(args.text))
    encoding = tokenizer.encode_detailed(cleaned.text, special_mode=args.special_mode)
    index = TextIndex(encoding.text)
    details = token_details(encoding, tokenizer, index)
    groups = partial_groups(encoding, index)
    byte_level = bool(getattr(tokenizer, "byte_level", False))
    if args.why is not None and not 0 <= args.why < len(details):
        raise ConfigError(f"--why {args.why}: the text has {len(details)} tokens (0..{len(details) - 1})")
    if args.json:
        print_json(inspect_json(tokenizer, encoding.text, details, groups, args, cleaned.notes))
        return 0
    console = stdout_console()
    for note in cleaned.notes:
        console.print(Text(note, style="yellow"))
    console.print(details_table(details, byte_level))
    console.print(Text(ROLE_LEGEND, style="dim"))
    for g in groups:
        chars = encoding.text[g.chars[0] : g.chars[1]]
        line = Text(f"tokens {g.tokens[0]}-{g.tokens[1] - 1} together make ", style="yellow")
        line.append(visible_text(chars), style="bold")
        line.append(f" ({' '.join(f'U+{ord(c):04X}' for c in chars)})", style="dim")
        console.print(line)
    summary = f"{len(details):,} tokens, {index.n_chars:,} characters, {index.n_bytes:,} bytes ({tokenizer.name}, special mode {args.special_mode})"
    console.print(Text(summary, style="dim"))
    if args.stream:
        console.print(stream_table(tokenizer, details))
    if args.why is not None:
        for line in tree_lines(tokenizer, details[args.why], byte_level):
            console.print(line)
    return 0


def details_table(details: list[TokenDetail], byte_level: bool) -> Table:
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    for name in ("#", "id", "token", "byte chars", "bytes", "roles", "decoded", "chars", "partial"):
        table.add_column(name, justify="right" if name in ("#", "id") else "left")
    for d in details:
        standalone = d.standalone
        decoded = Text(visible_text(standalone)) if standalone is not None else Text("incomplete", style="red")
        partial = Text("; ".join(_piece_short(p) for p in d.pieces if not p.whole), style="red")
        if d.group is not None:
            partial = Text(f"g{d.group} ", style="yellow") + partial
        token = Text(token_label(d.data, byte_level=byte_level), style="bold #f9e2af" if d.special else "bold")
        if d.data_note:
            token.append(f" ({d.data_note})", style="red")
        table.add_row(
            Text(str(d.index)),
            Text(str(d.id)),
            token,
            safe_text(d.byte_chars),
            Text(d.hex),
            Text(" ".join(_role(r.kind, r.seq_len) for r in d.roles)),
            decoded,
            Text(f"{d.char_span[0]}-{d.char_span[1]}"),
            partial,
        )
    return table


def stream_table(tokenizer: Any, details: list[TokenDetail]) -> Table:
    """One line per token: bytes fed, text that completed, what the decoder still waits for."""
    table = Table(title="streaming decode", show_edge=False, pad_edge=False, header_style="bold")
    for name in ("#", "bytes in", "emitted", "decoder"):
        table.add_column(name)
    for step in stream_decode([d.data for d in details]):
        index = "end" if step.index < 0 else str(step.index)
        emitted = Text(visible_text(step.emitted), style="bold green")
        status = Text(step.status, style="yellow" if step.waiting else "")
        table.add_row(Text(index), Text(step.data.hex(" ").upper()), emitted, status)
    return table


def tree_lines(tokenizer: Any, detail: TokenDetail, byte_level: bool) -> list[Text]:
    node = merge_tree_for(tokenizer, detail.id, special=detail.special)
    if node is None:
        return [Text(f"token {detail.index} has no merge tree: {tokenizer.name} is not built from merges", style="dim")]
    lines = [Text(f"why token {detail.index}:", style="bold")]
    for prefix, n in render_tree(node):
        line = Text(prefix, style="dim")
        line.append(token_label(n.data, byte_level=byte_level), style="bold")
        rank = f"  merge #{n.rank}" if n.kind == "merge" else f"  {n.kind}"
        line.append(rank, style="dim")
        lines.append(line)
    return lines


def inspect_json(
    tokenizer: Any, text: str, details: list[TokenDetail], groups: list[Any], args: argparse.Namespace, notes: tuple[str, ...]
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "tokenizer": tokenizer.name,
        "text": text,
        "special_mode": args.special_mode,
        "notes": list(notes),
        "tokens": [
            {
                "index": d.index,
                "id": d.id,
                "token": d.token,
                "text": decode_bytes_visibly(d.data),
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
                "note": d.data_note or None,
            }
            for d in details
        ],
        "groups": [{"tokens": list(g.tokens), "chars": list(g.chars), "byte_span": list(g.byte_span)} for g in groups],
    }
    if args.stream:
        out["stream"] = [
            {"index": s.index, "bytes": s.data.hex(), "emitted": s.emitted, "pending": s.pending.hex(), "status": s.status}
            for s in stream_decode([d.data for d in details])
        ]
    return out


def _piece_short(piece: CharPiece) -> str:
    """``1-2/3 U+D55C``: bytes 1 to 2 of the 3 bytes of U+D55C (the legend explains it)."""
    span = f"{piece.byte_from + 1}" if piece.byte_to - piece.byte_from == 1 else f"{piece.byte_from + 1}-{piece.byte_to}"
    return f"{span}/{piece.char_len} {piece.codepoint}"


def _role(kind: str, seq_len: int) -> str:
    return f"L{seq_len}" if kind == "lead" else ROLE_SHORT[kind]
