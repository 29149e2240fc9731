"""The Compare tab's words: row heads, the status line, the lit token's line, the Text view's title.

Rich ``Text`` built from the comparison's data; user text (file names, token forms, the text
itself) always through :func:`bpe_engine.display.visible_text`, never as markup.
"""

from __future__ import annotations

from rich.text import Text

from bpe_engine.compare import Comparison
from bpe_engine.compare.spans import TokenPick, covering
from bpe_engine.compare.stats import count_graphemes
from bpe_engine.display import counted, visible_text

from .running import CompareResult
from .stats_table import BASELINE_MARK

MAX_SPAN_TEXT = 24


def row_heads(labels: tuple[str, ...], comparison: Comparison, baseline: int | None) -> tuple[str, ...]:
    """``name  count`` per row (★ on the baseline), names and counts in columns."""
    names = [visible_text(label) + (f" {BASELINE_MARK}" if i == baseline else "") for i, label in enumerate(labels)]
    counts = [f"{row.stats.tokens:,}" if row.stats is not None else "error" for row in comparison.rows]
    nw = max((len(n) for n in names), default=0)
    cw = max((len(c) for c in counts), default=0)
    return tuple(f"{n:<{nw}} {c:>{cw}}" for n, c in zip(names, counts, strict=True))


def status_text(r: CompareResult | None, baseline: str | None, mode: str, busy: str) -> Text:
    """Counts of the text (code points beside graphemes), the baseline, notes and row errors."""
    out = Text()
    if busy:
        out.append(busy, "bold italic #f9e2af")
        out.append("  ")
    if r is None:
        if not busy:
            out.append("no comparison yet", "dim")
        return out
    c = r.comparison
    graphemes = count_graphemes(c.index)
    out.append(f"{c.index.n_chars:,} code points · {graphemes:,} graphemes · {c.index.n_bytes:,} bytes", "dim")
    out.append(f" · {len(c.disagreements):,} disputed boundaries · special text: {mode}", "dim")
    if baseline is not None:
        out.append(" · baseline ", "dim")
        out.append(visible_text(baseline), "bold")
        out.append(f" {BASELINE_MARK} (B sets it)", "dim")
    for note in c.notes:
        out.append(f"\n{note}", "yellow")
    for label, row in zip(r.labels, c.rows, strict=True):
        if row.error:
            out.append(f"\n{visible_text(label)}: ", "bold red")
            out.append(visible_text(row.error), "red")
    return out


def selection_line(r: CompareResult, lit: TokenPick | None) -> Text:
    """The lit token: its row, place, id and form, its characters, and what each row spends on them."""
    out = Text(no_wrap=True, overflow="ellipsis")
    if lit is None:
        out.append("point at a token (or click it; ←/→ in the rows) to light its characters up in every row", "dim")
        return out
    c = r.comparison
    encoding = c.rows[lit.row].encoding
    n = len(encoding.ids) if encoding is not None else 0
    out.append(visible_text(r.labels[lit.row]), "bold")
    out.append(f" token {lit.token + 1:,}/{n:,}", "bold")
    out.append(f" · id {lit.id if lit.id >= 0 else '?'}", "bold cyan")
    out.append(" · ")
    out.append(visible_text(lit.form), "bold")
    start, end = lit.chars
    shown = c.text[start:end]
    out.append(f" · chars {start}–{end} ", "dim")
    out.append(visible_text(shown[:MAX_SPAN_TEXT]) + ("…" if len(shown) > MAX_SPAN_TEXT else ""))
    counts = [
        f"{visible_text(r.labels[cov.row])} {len(cov.tokens)}"
        for cov in covering(c, lit.chars)
        if cov.tokens is not None and cov.row != lit.row
    ]
    if counts:
        out.append(" │ same characters: ", "dim")
        out.append(" · ".join(counts), "dim")
    return out


def text_title(r: CompareResult, row: int, mode: str) -> Text:
    """The Text view's head: which row, how many tokens, and the keys that change it."""
    out = Text(no_wrap=True, overflow="ellipsis")
    enc = r.comparison.rows[row].encoding
    out.append(visible_text(r.labels[row]), "bold")
    out.append(f" (row {row + 1} of {len(r.labels)})", "dim")
    if enc is not None:
        out.append(f" · {counted(len(enc.ids), 'token')}", "bold")
    out.append(f" · showing {mode}", "bold #f9e2af")
    out.append(" · t text · i ids · b bytes · ↑/↓ another row · c copies the ids", "dim")
    return out
