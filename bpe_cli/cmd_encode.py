"""``bpe-explorer encode``: text -> token ids, as readable coloured tokens, ids, a count or JSON.

Output modes (one at a time): readable tokens + ids + counts (default); ``--ids`` (the ids alone,
space separated: cl100k on ``hello world\\n`` gives ``15339 1917 198``); ``--count`` (the number
alone); ``--json`` (one object: ``tokenizer``, ``tokens`` -- per token ``id`` (``null`` for an
unknown piece without an id), ``token`` in the model's alphabet, ``text`` (the token's exact text,
or ``null`` when its bytes are not whole UTF-8), ``bytes`` in hex, ``byte_span`` in the input's
UTF-8, ``special``, ``unknown`` --, ``ids`` and ``notes``); ``--jsonl`` (that object for each input
line encoded alone, without its ``\\n``, with its ``line`` number first).

Standard input is read in blocks cut where the tokenizer allows (:mod:`bpe_engine.streaming.encode_stream`),
and each block's output is written before the next is read: memory does not grow with the
input, and the ids are those of the whole text. A tokenizer that cannot be cut holds its input
whole, up to what ``--memory-limit`` (default: the memory available) allows.

``--backend python`` forces the pure-Python encoder; ``tiktoken`` asks for tiktoken's core built
from the same ranks. Special-token text is encoded as ordinary text by default (``--special-mode
text``); a note on stderr says when the text holds some. A symbol the vocabulary cannot spell is
an unknown piece with a note saying why; when it has no id, the exit status is 1.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterator
from typing import Any

from bpe_engine.choices import SPECIAL_MODES, values
from bpe_engine.corpus.blocks import CutRule
from bpe_engine.corpus.table_size import uncut_limit
from bpe_engine.memory_budget import available_memory, note_input, size_text
from bpe_engine.errors import ConfigError
from bpe_engine.special_text import find_special_text, special_text_note
from bpe_engine.streaming.encode_stream import ENCODE_BYTES_PER_BYTE, encode_cut_rule, text_blocks
from bpe_engine.types import DEFAULT_SPECIAL_MODE

from .corpus_input import parse_size
from .encode_output import CountSink, IdsSink, JsonlSink, JsonSink, ReadableSink, Sink
from .output import note, open_tokenizer, stdin_stream

BACKENDS = ("auto", "python", "tiktoken")
EXIT_UNKNOWN_PIECES = 1
STDIN_NAME = "standard input"
STDIN_PURPOSE = "pass the text as an argument or pipe it in"
SINKS: dict[str, type[Sink]] = {"ids": IdsSink, "count": CountSink, "json": JsonSink, "jsonl": JsonlSink}


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
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--ids", dest="mode", action="store_const", const="ids", help="print the ids alone, space separated")
    modes.add_argument("--count", dest="mode", action="store_const", const="count", help="print the number of tokens alone")
    modes.add_argument(
        "--json",
        dest="mode",
        action="store_const",
        const="json",
        help='print {"tokenizer", "tokens": [{id, token, text, bytes, byte_span, special, unknown}], "ids", "notes"}',
    )
    modes.add_argument(
        "--jsonl", dest="mode", action="store_const", const="jsonl", help="one --json object per input line, with its line number"
    )
    add_special_mode_argument(parser)
    add_no_add_special_tokens_argument(parser)
    add_memory_limit_argument(parser)
    parser.add_argument("text", nargs="?", default="-", metavar="TEXT", help="text to encode, or '-' for stdin")
    parser.set_defaults(func=run, mode=None)


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


def add_no_add_special_tokens_argument(parser: argparse.ArgumentParser) -> None:
    """``--no-add-special-tokens`` as encode and inspect share it: HF's ``add_special_tokens=False``."""
    parser.add_argument(
        "--no-add-special-tokens",
        dest="add_special_tokens",
        action="store_false",
        help="leave out the tokens the tokenizer adds of its own ([CLS]/[SEP] of BERT, a SentencePiece model's "
        "<s>/</s>); by default they are added, as Hugging Face's encode adds them",
    )


def add_memory_limit_argument(parser: argparse.ArgumentParser) -> None:
    """``--memory-limit`` as encode and chunk share it: what bounds a stretch that cannot be cut."""
    parser.add_argument(
        "--memory-limit",
        type=parse_size,
        default=None,
        metavar="SIZE",
        help="memory a stretch of text with no place to cut it may take to encode, e.g. 2G (default: what is available now)",
    )


def read_input(value: str) -> str:
    """TEXT itself, or all of standard input for ``-`` (kept exactly, trailing newline included):
    what inspect and compare take whole."""
    if value != "-":
        return value
    # Held whole and encoded with every detail: bounded by the memory this process may still use
    # (every limit it runs under), checked as it is read -- a 3 GB pipe is refused, not read.
    budget = available_memory()
    limit = uncut_limit(budget, ENCODE_BYTES_PER_BYTE)
    note_input(STDIN_NAME, None, WHOLE_WAYS)
    whole = CutRule(lines=False, spaces=False)  # no cut point: one block
    stream = stdin_stream(STDIN_PURPOSE)
    data = stream.read(limit + 1) if limit else stream.read()
    if budget is not None and len(data) > limit:
        raise ConfigError(
            f"{STDIN_NAME} holds more than {size_text(limit)}: this command encodes its text whole, with every token's "
            f"details (~{ENCODE_BYTES_PER_BYTE} bytes of memory a byte), more than the {size_text(budget)} this process "
            f"may still use; ways out: {WHOLE_WAYS}"
        )
    return "".join(block.text for block in text_blocks(STDIN_NAME, io.BytesIO(data), whole))


WHOLE_WAYS = "give it a part of the text (e.g. head -c 1M), or encode it: bpe-explorer encode streams text of any size"


def memory_budget(limit: int | None) -> int | None:
    """``--memory-limit``, or the memory available now."""
    return available_memory() if limit is None else limit


def input_blocks(
    tokenizer: Any, value: str, *, memory_limit: int | None, lines: bool = False, add_special_tokens: bool = True
) -> Iterator[tuple[str, int]]:
    """The text to encode as ``(text, byte offset)`` blocks: TEXT as one block, standard input
    streamed in blocks cut where ``tokenizer`` allows (after every ``\\n`` with ``lines``),
    bounded by ``memory_limit`` (default: the memory available now)."""
    if value != "-":
        yield value, 0
        return
    rule = encode_cut_rule(tokenizer, budget=memory_budget(memory_limit), lines=lines, add_special_tokens=add_special_tokens)
    for block in text_blocks(STDIN_NAME, stdin_stream(STDIN_PURPOSE), rule):
        yield block.text, block.offset


def with_backend(tokenizer: Any, backend: str) -> Any:
    """The tokenizer on the chosen backend; one it cannot offer is a ConfigError."""
    if backend == "auto":
        return tokenizer
    if tokenizer.capabilities.fast_backend:
        return tokenizer.with_backend(backend)
    if backend == "tiktoken":
        raise ConfigError(f"{tokenizer.name!r} has no tiktoken backend (only BPE models do); use --backend python")
    return tokenizer


class SpecialTextSeen:
    """The special-token texts met in the blocks passing through, for the one note at the end."""

    def __init__(self, tokenizer: Any, mode: str) -> None:
        self.specials = tokenizer.special_tokens if mode != "refuse" else {}  # refusing says so, as an error
        self.found: dict[str, None] = {}

    def watch(self, blocks: Iterator[tuple[str, int]]) -> Iterator[tuple[str, int]]:
        for text, offset in blocks:
            if self.specials:
                self.found.update(dict.fromkeys(find_special_text(text, self.specials)))
            yield text, offset


def run(args: argparse.Namespace) -> int:
    tokenizer = with_backend(open_tokenizer(args.tokenizer), args.backend)
    blocks = input_blocks(
        tokenizer, args.text, memory_limit=args.memory_limit, lines=args.mode == "jsonl", add_special_tokens=args.add_special_tokens
    )
    seen = SpecialTextSeen(tokenizer, args.special_mode)
    sink = SINKS.get(args.mode, ReadableSink)(tokenizer, args.special_mode, args.add_special_tokens)
    sink.write(seen.watch(blocks))
    message = special_text_note(seen.found, args.special_mode, tokenizer.name, option="--special-mode")
    for text in ([message] if message else []) + list(sink.notes):
        note(text)
    return EXIT_UNKNOWN_PIECES if sink.unknown else 0
