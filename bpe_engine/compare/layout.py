"""The comparison drawn as text: every row on the same character axis, wrapped into blocks.

All rows show the *same* visible characters in the same columns; between two characters sits a
separator column wherever any row has a token boundary. A row that cuts there shows ``│``, one
that does not shows a blank, so boundaries line up across rows and disagreements stand out
(``▼`` in the marker line above the rows). Characters carry a style key (:data:`STYLE_KEYS`):
alternating ``tok0``/``tok1`` per token, ``split`` for a character whose bytes are divided
between tokens, ``gap`` for text no token covers, ``special`` for special tokens.

The layout is plain data (strings and style keys) so the CLI and the app render it alike and
tests can read it. The engine never says how a key looks: the colours are the front ends'
(one table, ``bpe_styles``, read by the app and the CLI). Cell widths follow East Asian Width (wide = 2 columns); they only decide
where lines wrap, never the alignment, which holds because every row shows the same cells.

>>> from bpe_engine.compare.baselines import CharacterTokenizer, WhitespaceWordTokenizer
>>> from bpe_engine.compare.rows import compare
>>> c = compare("ab c", [CharacterTokenizer(), WhitespaceWordTokenizer()])
>>> block = layout(c, width=80)[0]
>>> ["".join(text for text, _ in segs) for segs in (block.marker, *block.rows)]
['  ▼      ', '│a│b│␣│c│', '│a b│␣│c│']
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..display import visible_text
from .rows import Comparison

Segment = tuple[str, str]
"""``(text, style key)``, the key one of :data:`STYLE_KEYS`."""

STYLE_KEYS: tuple[str, ...] = ("tok0", "tok1", "split", "gap", "special", "unknown", "cut", "cut!", "nocut", "mark", "space")
"""Every style key the layout and the text view (:mod:`bpe_engine.compare.text_view`) emit:
what a cell is (a token's alternating colour, a split character, a cut...), never how it looks."""
LEGEND = (
    "│ boundary  ▼ rows disagree  red: character split between tokens  purple: unknown piece (not in the "
    "vocabulary)  dim: in no token"
)
SHORTER_LEGENDS = (
    "│ boundary  ▼ rows disagree  red: split character  purple: unknown piece  dim: in no token",
    "│ cut  ▼ rows disagree  red: split char  purple: unknown  dim: no token",
)
"""The same key in fewer cells, for a view narrower than :data:`LEGEND` (cut, it lost its end)."""


def legend_for(width: int) -> str:
    """The fullest legend that fits in ``width`` cells (the shortest when none does).

    >>> legend_for(80)
    '│ cut  ▼ rows disagree  red: split char  purple: unknown  dim: no token'
    """
    legends = (LEGEND, *SHORTER_LEGENDS)
    return next((legend for legend in legends if len(legend) <= width), legends[-1])

SPACE_MARK = "␣"


@dataclass(frozen=True, slots=True)
class Block:
    """One wrapped line of the axis: characters ``[start, end)``, the marker line, and each row's
    segments (``None`` for a row that failed; its error is shown instead)."""

    start: int
    end: int
    marker: tuple[Segment, ...]
    rows: tuple[tuple[Segment, ...] | None, ...]


@lru_cache(maxsize=8192)
def cell_text(ch: str) -> str:
    """The visible form of one character on the axis (a space as ``␣``, a newline as ``↵``,
    a combining mark on a dotted circle, controls and bidi/zero-width characters by name)."""
    if ch == " ":
        return SPACE_MARK
    if unicodedata.category(ch).startswith("M"):
        return "◌" + ch
    return visible_text(ch)


@lru_cache(maxsize=8192)
def _char_cells(ch: str) -> int:
    return cell_width(cell_text(ch))


def cell_width(text: str) -> int:
    """Terminal columns of a visible string (wide East Asian characters count 2, marks 0)."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def wrap_axis(text: str, cuts: frozenset[int] | set[int], width: int) -> list[tuple[int, int]]:
    """Character ranges of the lines: as many cells (plus separators) as fit in ``width``, and a
    new line after every newline character so the text keeps its shape."""
    width = max(width, 8)
    lines: list[tuple[int, int]] = []
    start, used = 0, 0
    for i, ch in enumerate(text):
        need = _char_cells(ch) + (1 if i in cuts else 0)
        if used + need + 1 > width and i > start:  # +1 keeps room for a closing separator
            lines.append((start, i))
            start, used = i, 0
        used += need
        if ch == "\n":
            lines.append((start, i + 1))
            start, used = i + 1, 0
    if start < len(text) or not lines:
        lines.append((start, len(text)))
    return lines


def layout(comparison: Comparison, width: int, *, max_lines: int | None = None) -> list[Block]:
    """The comparison as blocks of at most ``width`` columns (``max_lines`` stops early)."""
    cuts = all_cuts(comparison)
    disagree = frozenset(comparison.disagreements)
    ranges = wrap_axis(comparison.text, cuts, width)
    if max_lines is not None:
        ranges = ranges[:max_lines]
    return [block(comparison, start, end, cuts, disagree) for start, end in ranges]


def block(
    comparison: Comparison,
    start: int,
    end: int,
    cuts: frozenset[int] | None = None,
    disagree: frozenset[int] | None = None,
) -> Block:
    """One line of the layout: characters ``[start, end)``. ``cuts`` and ``disagree`` (the set of
    the comparison's disagreements) are the same for every block: pass them when laying out many,
    or each block rebuilds them from the whole text (quadratic on a long text)."""
    cuts = all_cuts(comparison) if cuts is None else cuts
    text = comparison.text
    cells = [cell_text(ch) for ch in text[start:end]]
    disagree = frozenset(comparison.disagreements) if disagree is None else disagree
    marker: list[Segment] = []
    for i in range(start, end + 1):
        if i in cuts:
            marker.append(("▼", "mark") if i in disagree else (" ", "space"))
        if i < end:
            marker.append((" " * cell_width(cells[i - start]), "space"))
    rows: list[tuple[Segment, ...] | None] = []
    for row in comparison.rows:
        if row.alignment is None or row.encoding is None:
            rows.append(None)
            continue
        bounds = row.alignment.boundaries
        split = row.alignment.split_chars
        owner = row.alignment.token_of_char
        special = row.encoding.special
        unknown = row.encoding.unknown or (False,) * len(special)
        segs: list[Segment] = []
        for i in range(start, end + 1):
            if i in cuts:
                if i in bounds:
                    segs.append(("│", "cut!" if i in disagree else "cut"))
                else:
                    segs.append((" ", "nocut"))
            if i < end:
                t = owner[i]
                if t < 0:
                    style = "gap"
                elif i in split:
                    style = "split"
                elif unknown[t]:
                    style = "unknown"  # an unknown piece is shown, marked -- never a row error
                elif special[t]:
                    style = "special"
                else:
                    style = "tok1" if t % 2 else "tok0"
                cell = cells[i - start]
                segs.append((cell, style))
        rows.append(tuple(_merge_runs(segs)))
    return Block(start, end, tuple(_merge_runs(marker)), tuple(rows))


def block_columns(text: str, start: int, end: int, cuts: frozenset[int] | set[int]) -> tuple[int, ...]:
    """Which character each column of block ``[start, end)`` shows (``-1``: a separator column),
    so a pointer position maps back to the axis. Every row of a block shares these columns.

    >>> block_columns("a한b", 0, 3, frozenset({1, 2}))
    (0, -1, 1, 1, -1, 2)
    """
    columns: list[int] = []
    for i in range(start, end + 1):
        if i in cuts:
            columns.append(-1)
        if i < end:
            columns.extend([i] * _char_cells(text[i]))
    return tuple(columns)


def all_cuts(comparison: Comparison) -> frozenset[int]:
    """Every character offset where at least one row has a token boundary."""
    rows = [r.alignment for r in comparison.rows if r.alignment is not None]
    return frozenset().union(*(r.boundaries for r in rows)) if rows else frozenset()


def _merge_runs(segs: Sequence[Segment]) -> list[Segment]:
    """Join neighbouring segments of the same style (fewer spans for the renderer)."""
    out: list[Segment] = []
    for text, style in segs:
        if out and out[-1][1] == style:
            out[-1] = (out[-1][0] + text, style)
        else:
            out.append((text, style))
    return out
