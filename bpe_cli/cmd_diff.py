"""``bpe-explorer diff A B``: two tokenizers side by side -- the rule lab on the command line.

Train one corpus twice (``--tie-break hf`` and ``--tie-break first-seen``, or any two settings) and
diff the results: the first merge at which the lists part, how many ranks hold another merge, how
many merges both make at other ranks, and the tokens each vocabulary has alone (compared by the
bytes they stand for, so any two tokenizers compare: files, directories, built-in names).
``--json`` gives the same as one object.
"""

from __future__ import annotations

import argparse
from typing import Any

from bpe_engine.display import counted, token_label
from bpe_engine.explore.diff import diff_tokenizers

from .output import open_tokenizer, print_json, say, stdout_console


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "diff",
        help="where two tokenizers' merges part and which tokens each has alone",
        description="Compare two tokenizers (directories, files or names): the first merge where their merge "
        "lists differ, how many ranks differ, and the tokens only one of them has.",
    )
    parser.add_argument("a", metavar="A", help="a tokenizer: a directory written by 'train', a file or a name")
    parser.add_argument("b", metavar="B", help="the other tokenizer")
    parser.add_argument("--json", action="store_true", help="one JSON object: merges (or null), shared, only_a, only_b")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    a, b = open_tokenizer(args.a), open_tokenizer(args.b)
    d = diff_tokenizers(a, b)
    if args.json:
        merges = None
        if d.merges is not None:
            m = d.merges
            merges = {"first_difference": m.first_difference, "ranks_differ": m.ranks_differ, "moved": m.moved,
                      "length_a": m.length_a, "length_b": m.length_b}
        print_json({
            "a": a.name, "b": b.name, "merges": merges, "shared": d.shared,
            "only_a": {"count": d.count_only_a, "first": [t.hex() for t in d.only_a]},
            "only_b": {"count": d.count_only_b, "first": [t.hex() for t in d.only_b]},
        })
        return 0
    console = stdout_console()
    if d.merges is None:
        say(console, "merge lists: not both BPE models with a merge list; the vocabularies are compared", "dim")
    elif d.merges.same:
        say(console, f"merge lists: identical ({counted(d.merges.length_a, 'merge')})", "green")
    else:
        m = d.merges
        where = f"first differ at merge {m.first_difference:,}" if m.first_difference else "agree where both have merges"
        lines = [f"merge lists: {where}; {counted(m.ranks_differ, 'rank')} hold another merge, {counted(m.moved, 'merge')} both make sit at other ranks"]
        if m.first_difference:
            ma, mb = a.merges[m.first_difference - 1], b.merges[m.first_difference - 1]
            lines.append(f"  merge {m.first_difference:,}: {_pair(a, ma)} in {a.name!r}, {_pair(b, mb)} in {b.name!r}")
        if m.length_a != m.length_b:
            lines.append(f"  {a.name!r} has {counted(m.length_a, 'merge')}, {b.name!r} {m.length_b:,}")
        for line in lines:
            say(console, line)
    say(console, f"vocabularies: {counted(d.shared, 'token')} shared; {d.count_only_a:,} only in {a.name!r}, {d.count_only_b:,} only in {b.name!r}")
    for name, count, tokens in ((a.name, d.count_only_a, d.only_a), (b.name, d.count_only_b, d.only_b)):
        if tokens:
            shown = "  ".join(token_label(t, byte_level=True) for t in tokens)
            more = f"  … {count - len(tokens):,} more" if count > len(tokens) else ""
            say(console, f"  only in {name!r}: {shown}{more}", "dim")
    return 0


def _pair(tokenizer: Any, pair: tuple[str, str]) -> str:
    from bpe_engine.explore.surfaces import token_label as model_label

    byte_level = tokenizer.capabilities.byte_level
    return f"{model_label(pair[0], byte_level=byte_level)} + {model_label(pair[1], byte_level=byte_level)}"
