"""``bpe-explorer encode``: text -> token ids, as readable coloured tokens or as JSON.

``--json`` prints ``{"ids": [...], "tokens": [...]}`` with each token's text (``<0xED>`` per byte
where a token holds part of a character). ``--backend python`` forces the pure-Python encoder;
``tiktoken`` asks for tiktoken's core built from the same ranks (byte-level models only).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bpe_engine.errors import ConfigError, SpecialTokenError
from bpe_engine.registry import load_tokenizer

from .output import has_color, id_line, json_token_text, label_for, print_json, stdout_console, token_line

BACKENDS = ("auto", "python", "tiktoken")
SPECIAL_MODES = ("refuse", "text", "special")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "encode",
        help="encode text with a tokenizer",
        description="Encode TEXT (or standard input with '-' or no TEXT) and show the tokens and ids.",
    )
    add_tokenizer_argument(parser)
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="auto",
        help="auto: the tokenizer's fastest exact path; python: the pure-Python encoder; "
        "tiktoken: tiktoken's core built from the same ranks (byte-level only)",
    )
    parser.add_argument("--json", action="store_true", help='print {"ids": [...], "tokens": [...]}')
    parser.add_argument(
        "--special-mode",
        choices=SPECIAL_MODES,
        default="refuse",
        help="text that spells a special token: refuse (error), text (encode as plain text), special (the special id)",
    )
    parser.add_argument("text", nargs="?", default="-", metavar="TEXT", help="text to encode, or '-' for stdin")
    parser.set_defaults(func=run)


def add_tokenizer_argument(parser: argparse.ArgumentParser) -> None:
    """``--tokenizer`` as encode and decode share it."""
    parser.add_argument(
        "--tokenizer",
        "-t",
        required=True,
        metavar="NAME|DIR|FILE",
        help="a reference name (gpt2, r50k_base, p50k_base, cl100k_base, o200k_base, bert-base-uncased), a directory written "
        "by 'train', or a tokenizer.json / vocab.json / .tiktoken file",
    )


def read_input(value: str) -> str:
    """TEXT itself, or all of standard input for ``-`` (kept exactly, trailing newline included)."""
    if value != "-":
        return value
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"standard input is not valid UTF-8 (byte {data[exc.start]:#04x} at offset {exc.start}); "
            "encode takes text -- convert it first, e.g. with iconv"
        ) from None


def encode_ids(tokenizer: Any, text: str, *, backend: str, special_mode: str) -> list[int]:
    """Encode through the chosen backend; one the tokenizer cannot offer is a ConfigError."""
    if backend != "auto":
        with_backend = getattr(tokenizer, "with_backend", None)
        if with_backend is not None:
            tokenizer = with_backend(backend)
        elif backend == "tiktoken":
            raise ConfigError(f"{tokenizer.name!r} has no tiktoken backend (only BPE models do); use --backend python")
    return list(tokenizer.encode(text, special_mode=special_mode))


def _special_hint(tokenizer: Any, text: str) -> str:
    """The special-token error in command-line terms (the engine's names Python arguments)."""
    found = sorted((text.find(s), s) for s in getattr(tokenizer, "special_tokens", {}) if s in text)
    which = f"the special token {found[0][1]!r}" if found else "a special token"
    return (
        f"the text contains {which}; pass --special-mode special to encode it as the special token, "
        "or --special-mode text to encode it as ordinary text"
    )


def run(args: argparse.Namespace) -> int:
    tokenizer = load_tokenizer(args.tokenizer)
    text = read_input(args.text)
    try:
        ids = encode_ids(tokenizer, text, backend=args.backend, special_mode=args.special_mode)
    except SpecialTokenError:
        raise SpecialTokenError(_special_hint(tokenizer, text)) from None
    if args.json:
        print_json({"ids": ids, "tokens": [json_token_text(tokenizer.token_bytes(i)) for i in ids]})
        return 0
    specials = set((getattr(tokenizer, "special_tokens", None) or {}).values())
    console = stdout_console()
    labels = [label_for(tokenizer, i) for i in ids]
    console.print(token_line(labels, [i in specials for i in ids], color=has_color(console)))
    console.print(id_line(ids))
    n_bytes = len(text.encode("utf-8"))
    ratio = f", {n_bytes / len(ids):.2f} bytes/token" if ids else ""
    console.print(
        f"{len(ids):,} tokens, {len(text):,} characters, {n_bytes:,} bytes{ratio} ({tokenizer.name})",
        style="dim",
        markup=False,
    )
    return 0
