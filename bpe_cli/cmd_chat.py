"""``bpe-explorer chat -t llama3,qwen3.6 FILE.json``: a conversation counted as each model sees it.

FILE holds OpenAI-style messages (a list, or an object with ``messages``; ``-`` reads standard
input). For each tokenizer the prompt its chat format builds is shown token by token, control tokens
lit, with the count and where the format comes from: **exact** (the model's own code, tested
against it) or a **documented convention** (:mod:`bpe_engine.chat.formats`). ``--format`` uses one
format for every tokenizer (e.g. ``chatml`` for a tokenizer that has ChatML's tokens); ``--json``
prints each prompt's tokens and count instead.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bpe_engine.chat import FORMATS, ChatPrompt, chat_format, chat_prompt, parse_messages, read_messages, token_labels
from bpe_engine.compare.resolve import parse_specs
from bpe_engine.display import counted, visible_text

from .output import open_tokenizer, print_json, print_token_line, read_stdin_bytes, say, stdout_console


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "chat",
        help="count a conversation as each model's chat format builds it",
        description="Build the prompt each tokenizer's chat format makes of OpenAI-style messages (FILE.json), "
        "show its tokens with the control tokens lit, and count them.",
    )
    parser.add_argument("--tokenizers", "-t", metavar="LIST", required=True, help="comma-separated tokenizers, e.g. llama3,qwen3.6")
    parser.add_argument(
        "--format", choices=tuple(FORMATS), default=None,
        help="one chat format for every tokenizer (default: each tokenizer's own): "
        + "; ".join(f"{f.name}: {f.title}, {f.kind}" for f in FORMATS.values()),
    )
    parser.add_argument("--json", action="store_true", help="print each prompt's format, count and tokens as JSON")
    parser.add_argument("file", metavar="FILE", help="the messages as JSON ('-' reads standard input)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.file == "-":
        from bpe_engine.chat.messages import ChatError

        try:
            data = json.loads(read_stdin_bytes("the conversation").decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise ChatError(f"standard input is not a JSON conversation ({type(exc).__name__})") from None
        messages = parse_messages(data, "standard input")
    else:
        messages = read_messages(args.file)
    fmt = chat_format(args.format) if args.format else None
    tokenizers = [open_tokenizer(spec) for spec in parse_specs(args.tokenizers)]
    prompts = [chat_prompt(tokenizer, messages, fmt) for tokenizer in tokenizers]
    if args.json:
        print_json([_record(p) for p in prompts])
        return 0
    console = stdout_console()
    for prompt, tokenizer in zip(prompts, tokenizers):
        _show(console, prompt, tokenizer)
    say(console, f"{counted(len(messages), 'message')}; " + ", ".join(f"{p.tokenizer} {p.count:,}" for p in prompts), "bold")
    return 0


def _show(console: Any, prompt: ChatPrompt, tokenizer: Any) -> None:
    fmt = prompt.format
    say(console, f"{visible_text(prompt.tokenizer)} · {fmt.title} ({fmt.kind}: {fmt.source}) · "
        f"{counted(prompt.count, 'token')}, {prompt.special_count:,} of them control tokens", "bold")
    print_token_line(console, token_labels(tokenizer, prompt), prompt.special, [False] * prompt.count)
    say(console, " ".join(map(str, prompt.ids)), "cyan")
    console.print()


def _record(prompt: ChatPrompt) -> dict[str, Any]:
    fmt = prompt.format
    return {
        "tokenizer": prompt.tokenizer,
        "format": fmt.name,
        "exact": fmt.exact,
        "source": fmt.source,
        "count": prompt.count,
        "control_tokens": prompt.special_count,
        "prompt": prompt.text,
        "ids": list(prompt.ids),
        "tokens": [{"id": i, "token": t, "special": s} for i, t, s in zip(prompt.ids, prompt.tokens, prompt.special)],
    }
