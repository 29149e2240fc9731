"""``bpe-explorer encode``: text -> token ids, as readable coloured tokens or as JSON.

``--json`` prints one object: ``tokenizer`` (its name), ``ids`` (``null`` for an unknown piece
without an id), ``tokens`` (per token: ``id``, ``token`` in the model's alphabet, ``text`` -- the
token's exact text, or ``null`` when its bytes are not whole UTF-8 --, ``bytes`` in hex,
``byte_span`` in the input's UTF-8, ``special``, ``unknown``) and ``notes``. ``--backend python``
forces the pure-Python encoder; ``tiktoken`` asks for tiktoken's core built from the same ranks.

Special-token text is encoded as ordinary text by default (``--special-mode text``, the default
everywhere); a note on stderr says when the text holds some. A symbol the vocabulary cannot spell
is shown as an unknown piece with a note saying why; when it has no id, the exit status is 1.
"""

from __future__ import annotations

import argparse
from typing import Any

from bpe_engine.choices import SPECIAL_MODES, values
from bpe_engine.display import counted
from bpe_engine.errors import ConfigError
from bpe_engine.types import DEFAULT_SPECIAL_MODE, UNKNOWN_ID, Encoding

from .output import (
    label_for,
    note,
    note_special_text,
    open_tokenizer,
    print_id_line,
    print_json,
    print_token_line,
    read_stdin_bytes,
    say,
    stdout_console,
    token_json_fields,
)

BACKENDS = ("auto", "python", "tiktoken")
EXIT_UNKNOWN_PIECES = 1


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
    parser.add_argument(
        "--json", action="store_true", help='print {"tokenizer", "ids", "tokens": [{id, token, text, bytes, ...}], "notes"}'
    )
    add_special_mode_argument(parser)
    parser.add_argument("text", nargs="?", default="-", metavar="TEXT", help="text to encode, or '-' for stdin")
    parser.set_defaults(func=run)


def add_tokenizer_argument(parser: argparse.ArgumentParser) -> None:
    """``--tokenizer`` as encode and decode share it."""
    parser.add_argument(
        "--tokenizer",
        "-t",
        required=True,
        metavar="NAME|DIR|FILE",
        help="a built-in name (gpt2, cl100k_base, o200k_base, mistral-v1, tekken, ...: 'bpe-explorer models' lists them "
        "all), hf:ORG/NAME from your Hugging Face cache, a directory written by 'train', or a tokenizer file "
        "(tokenizer.json, vocab.json, .tiktoken, SentencePiece .model, Tekken JSON)",
    )


def add_special_mode_argument(parser: argparse.ArgumentParser) -> None:
    """``--special-mode`` as encode, inspect and compare share it (one default everywhere)."""
    parser.add_argument(
        "--special-mode",
        choices=values(SPECIAL_MODES),
        default=DEFAULT_SPECIAL_MODE,
        help="text that spells a special token (<|endoftext|>): text (encode it as ordinary text; the default), "
        "special (as the special token), refuse (stop with an error)",
    )


def read_input(value: str) -> str:
    """TEXT itself, or all of standard input for ``-`` (kept exactly, trailing newline included)."""
    if value != "-":
        return value
    data = read_stdin_bytes("pass the text as an argument or pipe it in")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"standard input is not valid UTF-8 (byte {data[exc.start]:#04x} at offset {exc.start}); "
            "encode takes text -- convert it first, e.g. with iconv"
        ) from None


def with_backend(tokenizer: Any, backend: str) -> Any:
    """The tokenizer on the chosen backend; one it cannot offer is a ConfigError."""
    if backend == "auto":
        return tokenizer
    if tokenizer.capabilities.fast_backend:
        return tokenizer.with_backend(backend)
    if backend == "tiktoken":
        raise ConfigError(f"{tokenizer.name!r} has no tiktoken backend (only BPE models do); use --backend python")
    return tokenizer


def encoding_json(tokenizer: Any, encoding: Encoding) -> dict[str, Any]:
    """The ``--json`` object (fields in the module docstring and the README)."""
    raw = encoding.text.encode("utf-8", "surrogatepass")
    tokens = []
    for tid, token, (s, e), special, unknown in zip(
        encoding.ids, encoding.tokens, encoding.byte_spans, encoding.special, encoding.unknown, strict=True
    ):
        data = raw[s:e] if tid == UNKNOWN_ID else tokenizer.token_bytes(tid)
        tokens.append(
            {
                "id": None if tid == UNKNOWN_ID else tid,
                "token": token,
                **token_json_fields(data),
                "byte_span": [s, e],
                "special": special,
                "unknown": unknown,
            }
        )
    return {
        "tokenizer": tokenizer.name,
        "ids": [t["id"] for t in tokens],
        "tokens": tokens,
        "notes": list(encoding.notes),
    }


def run(args: argparse.Namespace) -> int:
    tokenizer = open_tokenizer(args.tokenizer)
    text = read_input(args.text)
    encoding = with_backend(tokenizer, args.backend).encode_detailed(text, special_mode=args.special_mode)
    status = EXIT_UNKNOWN_PIECES if UNKNOWN_ID in encoding.ids else 0
    note_special_text([tokenizer], text, args.special_mode)
    for message in encoding.notes:
        note(message)
    if args.json:
        print_json(encoding_json(tokenizer, encoding))
        return status
    console = stdout_console()
    labels = [label_for(tokenizer, i, token) for i, token in zip(encoding.ids, encoding.tokens)]
    print_token_line(console, labels, encoding.special, encoding.unknown)
    print_id_line(console, encoding.ids)
    n_ids, n_bytes = len(encoding.ids), len(text.encode("utf-8", "surrogatepass"))
    ratio = f", {n_bytes / n_ids:.2f} bytes/token" if n_ids else ""
    unknown = f", {sum(encoding.unknown):,} unknown" if any(encoding.unknown) else ""
    counts = f"{counted(n_ids, 'token')}{unknown}, {counted(len(text), 'character')}, {counted(n_bytes, 'byte')}"
    say(console, f"{counts}{ratio} ({tokenizer.name})", "dim")
    return status
