"""Shared rich helpers for the CLI: consoles, safe token rendering, tables and progress.

Everything shown comes from user data (corpus text, token bytes), so it is always turned into a
visible plain string first (:mod:`bpe_engine.display`) and put into ``rich.text.Text`` objects --
never into markup strings -- so neither ``[bold]`` in a corpus nor an ESC byte in a token can
style or drive the terminal. Machine output (``--json``) is plain ``json.dumps`` with ASCII
escapes, which is equally inert on a terminal.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from bpe_engine.byte_table import token_str_to_bytes
from bpe_engine.display import decode_bytes_visibly, token_label, token_str_label, visible_text

# Alternating backgrounds make token boundaries visible without separators that could be
# mistaken for token text; specials get their own style.
TOKEN_STYLES = ("black on #a6e3a1", "black on #89b4fa", "black on #f9e2af", "black on #f5c2e7", "black on #94e2d5")
SPECIAL_STYLE = "bold white on #d20f39"


def stdout_console() -> Console:
    """Console on the current ``sys.stdout`` (so pytest's capsys sees it); no auto-highlighting."""
    return Console(file=sys.stdout, highlight=False, soft_wrap=True)


def stderr_console() -> Console:
    """Console on the current ``sys.stderr`` for progress and notes."""
    return Console(file=sys.stderr, highlight=False, soft_wrap=True)


def print_json(data: Any) -> None:
    """One line of JSON on stdout (ASCII escapes: safe on a terminal, exact for programs)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=True) + "\n")
    sys.stdout.flush()


def json_token_text(data: bytes) -> str:
    """A token for ``--json``: its text when valid UTF-8, ``<0xED>`` per byte where it is not."""
    return decode_bytes_visibly(data)


def label_for(tokenizer: Any, token_id: int) -> str:
    """Readable, inert label of a token id for terminal display; never contains a plain space.

    Byte-level tokens are labelled from their bytes (``Ġ`` for a space, ``<0xED>`` for a partial
    character); character-level ones from their model string (``▁the``, ``lo</w>``) with any raw
    space shown as ``␣``.
    """
    byte_level = bool(getattr(tokenizer, "byte_level", False))
    if byte_level or not hasattr(tokenizer, "token_str"):
        return token_label(tokenizer.token_bytes(token_id), byte_level=byte_level)
    return token_str_label(tokenizer.token_str(token_id)).replace(" ", "␣")


def model_token_label(token: str, *, byte_level: bool) -> str:
    """Label of a token given in the model alphabet (merges lists): byte tokens by their bytes."""
    if byte_level:
        try:
            return token_label(token_str_to_bytes(token), byte_level=True)
        except KeyError:  # a special or added token outside the byte table
            return token_str_label(token)
    return token_str_label(token)


def token_line(labels: Sequence[str], special: Sequence[bool] | None = None, *, color: bool = True) -> Text:
    """The tokens side by side, each on an alternating background (specials highlighted).

    Without colour (a pipe, ``NO_COLOR``) tokens are separated by single spaces instead: labels
    never contain a plain space, so the boundaries stay unambiguous.
    """
    out = Text()
    flags = special or [False] * len(labels)
    for i, (label, is_special) in enumerate(zip(labels, flags)):
        if not color and i:
            out.append(" ")
        out.append(label, style=SPECIAL_STYLE if is_special else TOKEN_STYLES[i % len(TOKEN_STYLES)])
    return out


def has_color(console: Console) -> bool:
    """Whether ``console`` will show the token backgrounds."""
    return console.color_system is not None and not console.no_color


def id_line(ids: Iterable[int]) -> Text:
    """The ids as plain digits, space separated (copy-pasteable into ``decode``)."""
    return Text(" ".join(str(i) for i in ids), style="cyan")


def safe_text(text: str, style: str = "", *, keep_newlines: bool = False) -> Text:
    """User text as an inert Text (controls and bidi characters shown visibly)."""
    return Text(visible_text(text, keep_newlines=keep_newlines), style=style)


def merges_table(rows: Iterable[Sequence[Any]], *, with_counts: bool) -> Table:
    """Rank, left + right -> new token (with its id), and the count when known."""
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("rank", justify="right")
    table.add_column("left")
    table.add_column("right")
    table.add_column("new token")
    table.add_column("id", justify="right")
    if with_counts:
        table.add_column("count", justify="right")
    for row in rows:
        rank, left, right, new, new_id, *rest = row
        cells = [Text(str(rank)), Text(left), Text(right), Text(new, style="bold"), Text(str(new_id))]
        if with_counts:
            cells.append(Text("" if rest[0] is None else f"{rest[0]:,}"))
        table.add_row(*cells)
    return table


class RateColumn(ProgressColumn):
    """Completed units per second since the task started (rich's speed is a short moving window)."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        rate = task.completed / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:,.0f} {self.unit}/s", style="progress.data.speed")


def merge_progress(console: Console) -> Progress:
    """The training progress bar: merges done / target, merges per second, elapsed time."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn("merges"),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    )


class Throttle:
    """True at most every ``interval`` seconds: progress updates cost a lock and a redraw."""

    def __init__(self, interval: float = 0.05) -> None:
        self.interval = interval
        self._next = 0.0

    def ready(self) -> bool:
        now = time.monotonic()
        if now >= self._next:
            self._next = now + self.interval
            return True
        return False
