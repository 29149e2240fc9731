"""``bpe-explorer add-tokens BASE TOKEN... -o DIR``: tokens matched whole, in each format's own terms.

HF ``added_tokens`` in tokenizer.json, tiktoken ``special_tokens`` in tiktoken.json, special tokens in
bpe-explorer.json (:mod:`bpe_engine.surgery.added`); new ids follow the largest in use.
"""

from __future__ import annotations

import argparse
from typing import Any

from bpe_engine.display import counted

from .cmd_extend import add_output_options, open_base, output_dir, report_written
from .output import say, stdout_console


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "add-tokens",
        help="add tokens matched whole (HF added_tokens, tiktoken specials) to a real tokenizer",
        description="Add TOKEN... to BASE as tokens matched whole before any merge, at the ids after the largest in use.",
    )
    parser.add_argument("base", metavar="BASE", help="the tokenizer to add to (a name, file or directory)")
    parser.add_argument("tokens", nargs="+", metavar="TOKEN", help="the text of each token to add")
    add_output_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bpe_engine.surgery.added import add_tokens
    from bpe_engine.surgery.checks import surgery_checks
    from bpe_engine.surgery.save import save_changed

    out = output_dir(args)
    base = open_base(args.base)
    name = args.name or out.resolve().name
    tokenizer, added = add_tokens(base, list(args.tokens), name)
    written = save_changed(tokenizer, base, out, name=name, operation="add-tokens", new_ids=sorted(added.tokens.values()))
    console = stdout_console()
    say(console, f"added {counted(len(added.tokens), 'token')} to {base.name!r} as {name!r}")
    for token, i in added.tokens.items():
        say(console, f"  {token!r} -> id {i:,}")
    for token, i in added.already.items():
        say(console, f"  {token!r} is one token already (id {i:,}): not added")
    for line in surgery_checks(base.tokenizer, tokenizer, None).lines(base.name, name):
        say(console, f"  {line}")
    report_written(written, ["added tokens are matched as special tokens: encode with --special-mode special "
                             "(tiktoken: allowed_special); Hugging Face always matches them"] if added.tokens else [])
    return 0
