"""``bpe-explorer metrics --tokenizer T FILE... [--json] [--alpha A] [--parallel FILE...]``.

The numbers people judge a tokenizer by, per file and in total (:mod:`bpe_engine.metrics`):
tokens; characters, bytes per token; tokens per word (fertility); the continued-word rate;
Shannon and Rényi efficiency (Zouhar et al. 2023, as ``tokenization-scorer`` defines them);
vocabulary use; a Zipf exponent. ``--parallel`` takes texts of one content in several languages and
gives each one's tokens against the first's (the language premium, Petrov et al. 2023).
Beside every count: the share of unknown and byte-fallback tokens; a premium built on more than 5 %
of them is flagged ``!`` (BERT's Amharic is 95 % ``[UNK]`` and looked the fairest). Notes on stderr
(and ``warnings`` in ``--json``) say when whitespace words mean nothing for a file's script and when
files given as parallel do not look parallel. Only the text's own tokens are counted: tokens a
tokenizer adds (BERT's ``[CLS]``/``[SEP]``) are not -- the rule ``compare`` follows too.
``--tokenizer`` may be repeated (or a comma list): one table row per tokenizer and file, and with
``--json`` one JSON object per tokenizer, one per line.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from bpe_engine.errors import ConfigError
from bpe_engine.display import visible_text
from bpe_engine.metrics import DEFAULT_ALPHA, TextMetrics, language_premium, measure_files
from bpe_engine.core.text_files import read_text_file
from bpe_engine.metrics.languages.parallel_corpus import parallel_warnings
from bpe_engine.metrics.token_shares import UNRELIABLE_SHARE, share
from bpe_engine.metrics.vocabulary import vocabulary_ids

from .output import ADDED_TOKENS_RULE, note, open_tokenizer, print_json, safe_text, stdout_console

COLUMNS = (
    ("tokens", "tokens", "{:,}"),
    ("chars/tok", "chars_per_token", "{:.3f}"),
    ("bytes/tok", "bytes_per_token", "{:.3f}"),
    ("tok/word", "tokens_per_word", "{:.3f}"),
    ("continued", "continued_word_rate", "{:.1%}"),
    ("Shannon", "shannon_efficiency", "{:.4f}"),
    ("Rényi", "renyi_efficiency", "{:.4f}"),
    ("types", "observed_types", "{:,}"),
    ("vocab use", "vocabulary_use", "{:.2%}"),
    ("Zipf", "zipf_exponent", "{:.3f}"),
    ("UNK", "unknown_share", "{:.1%}"),
    ("byte fb", "byte_fallback_share", "{:.1%}"),
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "metrics",
        help="measure tokenizers on files: fertility, efficiency, vocabulary use, language premium",
        description="Tokens, characters and bytes per token, tokens per word, continued-word rate, Shannon and "
        "Rényi efficiency (as tokenization-scorer defines them), vocabulary use and a Zipf fit, per file and in "
        "total; --parallel: each text's tokens against the first's (the language premium).",
    )
    parser.add_argument(
        "-t", "--tokenizer", action="append", required=True, metavar="T",
        help="a tokenizer (built-in name, hf:ORG/NAME, file or directory); repeat it or give a comma list for several",
    )  # fmt: skip
    parser.add_argument("files", nargs="*", metavar="FILE", help="UTF-8 text files")
    parser.add_argument("--json", action="store_true", help="one JSON object per tokenizer: files, totals, parallel")
    parser.add_argument("--alpha", type=_alpha, default=DEFAULT_ALPHA, metavar="A", help=f"order of the Rényi efficiency (default {DEFAULT_ALPHA})")
    parser.add_argument(
        "--parallel", nargs="+", default=[], metavar="FILE",
        help="texts of one content in several languages: tokens of each relative to the first",
    )  # fmt: skip
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not args.files and not args.parallel:
        raise ConfigError("give FILE(s) to measure, --parallel FILE FILE ..., or both")
    specs = [s.strip() for value in args.tokenizer for s in value.split(",") if s.strip()]
    tokenizers = [open_tokenizer(s) for s in specs]
    files = [(path, read_text_file(path)) for path in args.files]
    parallel = [(path, read_text_file(path)) for path in args.parallel]
    results = [metrics_json(tok, files, parallel, args.alpha) for tok in tokenizers]
    for message in dict.fromkeys(w for result in results for w in result.get("warnings", ())):
        note(message)
    if args.json:
        for result in results:
            print_json(result)
        return 0
    console = stdout_console()
    if files:
        wide = _metrics_table(results, args.alpha)
        fits = console.measure(wide, options=console.options.update_width(10**6)).maximum <= console.width
        console.print(wide if fits else _metrics_by_figure(results, args.alpha))
    if parallel:
        console.print(_premium_table(results, [p for p, _ in parallel]))
        if any(p["unreliable"] for result in results for p in result["parallel"]):
            console.print(Text(f"! more than {UNRELIABLE_SHARE:.0%} of the tokens are unknown or byte fallback: the premium flatters it", style="yellow"))
    console.print(Text(ADDED_TOKENS_RULE, style="dim"))
    return 0


def metrics_json(tokenizer: Any, files: list[tuple[str, str]], parallel: list[tuple[str, str]], alpha: float) -> dict[str, Any]:
    """The object ``--json`` prints for one tokenizer."""
    ordinary = frozenset(vocabulary_ids(tokenizer)) - frozenset(tokenizer.special_tokens.values()) - {tokenizer.unk_id}
    out: dict[str, Any] = {"tokenizer": tokenizer.name, "alpha": alpha, "vocabulary": len(ordinary)}
    warnings: list[str] = []
    if files:
        each, total = measure_files(tokenizer, files)
        out["files"] = [_file_json(m, alpha, ordinary) for m in each]
        out["totals"] = _file_json(total, alpha, ordinary)
        warnings += [_words_warning(m) for m in each if m.words_unclear]
    if parallel:
        each, _ = measure_files(tokenizer, parallel)
        out["parallel"] = [
            {"file": p.name, "tokens": p.tokens, "premium": p.premium, "unknown": m.unknown, "byte_fallback": m.byte_fallback,
             "unknown_share": share(m.unknown, m.tokens), "byte_fallback_share": share(m.byte_fallback, m.tokens),
             "unreliable": m.unreliable or base_unreliable, "words_unclear": m.words_unclear}
            for p, m, base_unreliable in zip(language_premium(each), each, [each[0].unreliable] * len(each), strict=True)
        ]  # fmt: skip
        warnings += parallel_warnings([(name, len(text.splitlines())) for name, text in parallel])
        warnings += [_words_warning(m) for m in each if m.words_unclear and m.name not in {f for f, _ in files}]
    if warnings:
        out["warnings"] = warnings
    return out


def _words_warning(m: TextMetrics) -> str:
    return (
        f"{visible_text(m.name)}: its whitespace words average {m.characters / max(m.words, 1):.0f} characters, so this "
        "script does not space its words and tokens per word means little; read characters or bytes per token"
    )


def _file_json(m: TextMetrics, alpha: float, ordinary: frozenset[int]) -> dict[str, Any]:
    data = m.as_dict(alpha=alpha, ordinary=ordinary)
    data["file"] = data.pop("name")
    return data


def _metrics_table(results: list[dict[str, Any]], alpha: float) -> Table:
    table = Table(show_edge=False, pad_edge=False, header_style="bold", caption=f"Rényi efficiency of order α = {alpha:g}")
    table.add_column("tokenizer", no_wrap=True)
    table.add_column("file", overflow="fold")
    for header, _, _ in COLUMNS:
        table.add_column(header, justify="right")
    for result in results:
        rows = [*result["files"], result["totals"]] if len(result["files"]) > 1 else result["files"]
        for row in rows:
            cells = [_cell(row[key], fmt) for _, key, fmt in COLUMNS]
            style = "bold" if row is result.get("totals") else ""
            table.add_row(safe_text(result["tokenizer"]), safe_text(row["file"]), *cells, style=style)
    return table


def _metrics_by_figure(results: list[dict[str, Any]], alpha: float) -> Table:
    """The same figures turned on their side -- a row per figure, a column per tokenizer and file --
    for a terminal too narrow for a row each (ten figures of three tokenizers at 80 columns came out
    as columns three characters wide, every number cut)."""
    table = Table(show_edge=False, pad_edge=False, header_style="bold", caption=f"Rényi efficiency of order α = {alpha:g}")
    table.add_column("", no_wrap=True)
    rows: list[dict[str, Any]] = []
    for result in results:
        files = [*result["files"], result["totals"]] if len(result["files"]) > 1 else result["files"]
        for row in files:
            name = "total" if row is result.get("totals") else Path(row["file"]).name
            table.add_column(f"{safe_text(result['tokenizer'])}\n{safe_text(name)}", justify="right", overflow="fold")
            rows.append(row)
    for header, key, fmt in COLUMNS:
        table.add_row(header, *(_cell(row[key], fmt) for row in rows))
    return table


def _premium_table(results: list[dict[str, Any]], paths: list[str]) -> Table:
    table = Table(show_edge=False, pad_edge=False, header_style="bold", title="language premium: tokens against the first file")
    table.add_column("file", overflow="fold")
    for result in results:
        table.add_column(safe_text(result["tokenizer"]), justify="right")
    for n, path in enumerate(paths):
        cells = []
        for result in results:
            p = result["parallel"][n]
            cell = f"{p['tokens']:,} (×{p['premium']:.2f})" if p["premium"] is not None else f"{p['tokens']:,}"
            odd = [f"{label} {p[key]:.0%}" for label, key in (("unk", "unknown_share"), ("byte", "byte_fallback_share")) if p[key]]
            cells.append(cell + (" " + " ".join(odd) if odd else "") + (" !" if p["unreliable"] else ""))
        table.add_row(safe_text(path), *cells)
    return table


def _cell(value: Any, fmt: str) -> str:
    return "–" if value is None else fmt.format(value)


def _alpha(value: str) -> float:
    try:
        alpha = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {value!r}") from None
    if not (alpha > 0 and math.isfinite(alpha)):
        raise argparse.ArgumentTypeError(f"the Rényi order must be a positive number, got {value!r}")
    return alpha


__all__ = ["metrics_json", "register", "run"]
