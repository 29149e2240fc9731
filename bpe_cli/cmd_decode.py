"""``bpe-explorer decode``: token ids -> text.

Ids come as arguments or on standard input (``-``), separated by spaces or commas; the output of
``encode --json`` is accepted too. On a terminal the text is shown with controls made visible;
into a pipe or file it is written exactly. A newline ends the output, as ``echo`` ends its own;
``-n`` leaves it out, so ``encode --json ... | decode -n -t ... -`` gives back the text byte for byte.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from bpe_engine.errors import ConfigError

from .cmd_encode import add_tokenizer_argument
from .output import open_tokenizer, read_stdin_bytes, safe_text, stdout_console

_SEPARATORS = re.compile(r"[\s,\[\]]+")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "decode",
        help="decode token ids back to text",
        description="Decode IDS (or '-' to read them from standard input) with a tokenizer.",
    )
    add_tokenizer_argument(parser)
    parser.add_argument(
        "--errors",
        choices=("replace", "strict"),
        default="replace",
        help="bytes that are not valid UTF-8: replace with U+FFFD (default) or fail",
    )
    parser.add_argument(
        "-n",
        "--no-newline",
        action="store_true",
        help="do not end the output with a newline (the decoded text exactly, for pipes and round trips)",
    )
    parser.add_argument("ids", nargs="+", metavar="IDS", help="token ids, or '-' to read them from stdin")
    parser.set_defaults(func=run)


def parse_ids(values: list[str]) -> list[int]:
    """Ids from arguments or stdin text: ``1 2 3``, ``1,2,3``, ``[1, 2]`` or ``{"ids": [1, 2]}``."""
    if values == ["-"]:
        text = read_stdin_bytes("pass the ids as arguments or pipe them in").decode("utf-8", "replace")
    else:
        text = " ".join(values)
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"ids input looks like JSON but is not valid: {exc.msg} (column {exc.colno})") from None
        if not isinstance(data, dict) or not isinstance(data.get("ids"), list):
            raise ConfigError('JSON ids input must be an object with an "ids" list (as encode --json prints)')
        parts = [str(v) for v in data["ids"]]
    else:
        parts = [p for p in _SEPARATORS.split(stripped) if p]
    ids: list[int] = []
    for part in parts:
        if part in ("None", "null"):
            raise ConfigError("the ids hold null: encode marks an unknown piece that way, and it has no id to decode")
        if not re.fullmatch(r"\d+", part):
            raise ConfigError(f"{part!r} is not a token id; ids are non-negative integers")
        ids.append(int(part))
    return ids


def check_ids(tokenizer: Any, ids: list[int]) -> None:
    """Every id must exist in the tokenizer (the message names the first unknown one and the range).

    Every tokenizer answers through ``token_bytes``, whose error names the id and the range."""
    for i in dict.fromkeys(ids):
        tokenizer.token_bytes(i)


def run(args: argparse.Namespace) -> int:
    tokenizer = open_tokenizer(args.tokenizer)
    ids = parse_ids(args.ids)
    check_ids(tokenizer, ids)
    try:
        text = tokenizer.decode(ids, errors=args.errors)
    except UnicodeDecodeError as exc:
        raise ConfigError(f"the ids do not decode to valid UTF-8 ({exc.reason}); use --errors replace") from None
    end = "" if args.no_newline else "\n"
    if sys.stdout.isatty():
        stdout_console().print(safe_text(text, keep_newlines=True), end=end)
    else:
        sys.stdout.write(text + end)
        sys.stdout.flush()
    return 0
