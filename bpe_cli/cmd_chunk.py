"""``bpe-explorer chunk``: a text cut at token boundaries into pieces of at most N tokens.

Output, one chunk at a time as it is made (:mod:`bpe_engine.streaming.chunking` says what each chunk
promises):

- default, JSON Lines: ``{"text": ..., "tokens": 812, "byte_span": [0, 3301], "exact": true}`` per
  chunk -- its exact text (only control, bidi and invisible characters escaped, as every
  ``--json``), how many tokens it encodes to alone, its ``[start, end)`` in the input's UTF-8 bytes,
  and whether those tokens are exactly the whole text's there. The texts concatenated are the
  input: ``jq -j .text`` gives it back byte for byte.
- ``--null``: the chunks' raw text, each followed by a NUL byte (``xargs -0``, ``split -t '\\0'``);
  an input holding a NUL is refused there, since a NUL would then be no boundary.

A chunk that cannot be brought to N tokens (one token of the text that alone encodes to more) is
written anyway, with a note, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any

from bpe_engine.errors import ConfigError
from bpe_engine.streaming.chunking import Chunk, chunk_text
from bpe_engine.streaming.encode_stream import encode_cut_rule, text_blocks
from bpe_engine.text_files import corpus_failure, open_input

from .arg_types import positive
from .cmd_encode import (
    STDIN_NAME,
    STDIN_PURPOSE,
    add_memory_limit_argument,
    add_special_mode_argument,
    add_tokenizer_argument,
    memory_budget,
)
from .output import note, open_tokenizer, print_json, stdin_stream

EXIT_OVER = 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "chunk",
        help="cut a text into pieces of at most N tokens",
        description="Cut FILE (or standard input with '-') at token boundaries into pieces of at most N tokens each, "
        "preferring places where no token crosses (before a space, at a line start); the pieces laid end to end are "
        "the input. Prints one JSON object per piece: text, tokens, byte_span, exact.",
    )
    add_tokenizer_argument(parser)
    parser.add_argument("--max-tokens", "-n", type=positive, required=True, metavar="N", help="tokens per piece, at most")
    parser.add_argument(
        "--null", action="store_true", help="write each piece's raw text followed by a NUL byte instead of JSON lines"
    )
    add_special_mode_argument(parser)
    add_memory_limit_argument(parser)
    parser.add_argument("file", metavar="FILE", help="the text to cut, or '-' for standard input")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    tokenizer = open_tokenizer(args.tokenizer)
    rule = encode_cut_rule(tokenizer, budget=memory_budget(args.memory_limit))
    if args.file == "-":
        blocks = text_blocks(STDIN_NAME, stdin_stream(STDIN_PURPOSE), rule)
        return _write(chunk_text(tokenizer, blocks, rule, args.max_tokens, args.special_mode), args)
    _, opened = open_input(args.file, fail=corpus_failure(args.file, "file"), expected="a text file", streams=True)
    with opened as handle:
        return _write(chunk_text(tokenizer, text_blocks(args.file, handle, rule), rule, args.max_tokens, args.special_mode), args)


def _write(chunks: Iterator[Chunk], args: argparse.Namespace) -> int:
    over: list[Chunk] = []
    for n, chunk in enumerate(chunks, 1):
        if args.null:
            if "\0" in chunk.text:
                raise ConfigError(
                    f"the text holds a NUL byte (chunk {n}, from byte offset {chunk.start:,}), so --null cannot mark where "
                    "chunks end; leave --null out for JSON lines"
                )
            sys.stdout.buffer.write(chunk.text.encode("utf-8") + b"\0")
        else:
            print_json({"text": chunk.text, "tokens": chunk.tokens, "byte_span": [chunk.start, chunk.end], "exact": chunk.exact})
        if not chunk.fits:
            over.append(chunk)
    if over:
        first = over[0]
        note(
            f"{len(over):,} chunk(s) encode alone to more than {args.max_tokens:,} tokens, the first at bytes "
            f"{first.start:,}-{first.end:,} ({first.tokens} tokens): a token of the text that alone encodes to more "
            "(part of a character, a word that changes at a chunk's start) cannot be cut smaller"
        )
    return EXIT_OVER if over else 0
