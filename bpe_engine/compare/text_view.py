"""The plain coloured text view of one row: the text itself, each token on its own colour.

This is the view tiktokenizer and the OpenAI tokenizer page are known for -- no separators, no
byte labels, just the text with alternating token colours -- and, on demand, the same tokens as
their ids or their UTF-8 bytes (never always: bytes are noise until asked for). Lines are wrapped
to a width here, so the app only paints what it is given and can map a pointer back to a token.

Every character goes through :func:`bpe_engine.display.visible_text` (escape codes, bidi and
zero-width characters show by name; a newline shows as ``↵`` and ends the line). A character
whose bytes are split between tokens is drawn once, on the ``split`` style of its first token.

>>> from bpe_engine.compare.baselines import WhitespaceWordTokenizer
>>> from bpe_engine.compare.rows import compare
>>> row = compare("ab c", [WhitespaceWordTokenizer()]).rows[0]
>>> [[(p.text, p.style) for p in line] for line in text_view(row.encoding, row.alignment, "ids", 80)]
[[('0', 'tok0'), (' ', 'space'), ('1', 'tok1')]]
>>> long = compare("ab cd efgh", [WhitespaceWordTokenizer()]).rows[0]
>>> ["".join(p.text for p in line) for line in text_view(long.encoding, long.alignment, "text", 8)]
['ab cd ef', 'gh']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..display import visible_text
from ..types import UNKNOWN_ID, Encoding
from .align import RowAlignment
from .layout import cell_width

ViewMode = Literal["text", "ids", "bytes"]
VIEW_MODES: tuple[ViewMode, ...] = ("text", "ids", "bytes")


@dataclass(frozen=True, slots=True)
class Piece:
    """``text`` (visible, safe to paint) in ``style`` (one of :data:`~bpe_engine.compare.layout.STYLE_KEYS`),
    showing characters ``chars`` of the text, belonging to token ``token`` (-1: none)."""

    text: str
    style: str
    token: int
    chars: tuple[int, int]
    breaks: bool = False  # a newline: the line ends after it

    @property
    def cells(self) -> int:
        return cell_width(self.text)


def text_view(encoding: Encoding, alignment: RowAlignment, mode: ViewMode, width: int) -> list[list[Piece]]:
    """One encoding (a comparison row, or the inspector's) drawn as ``mode`` in lines of at most
    ``width`` cells."""
    if mode == "text":
        pieces = _text_pieces(encoding, alignment)
    else:
        pieces = _token_pieces(encoding, alignment, mode)
    return _wrap(pieces, max(width, 8))


def style_of(enc: Encoding, token: int, *, split: bool = False) -> str:
    """The style key of ``token`` (alternating, or what marks it)."""
    if token < 0:
        return "gap"
    if split:
        return "split"
    if enc.unknown and enc.unknown[token]:
        return "unknown"
    if enc.special[token]:
        return "special"
    return "tok1" if token % 2 else "tok0"


def ids_text(encoding: Encoding) -> str:
    """The ids as a list to paste into code: ``[15496, 995]`` (an unknown piece without an id
    as ``null``, as in ``encode --json``)."""
    ids = encoding.ids
    return "[" + ", ".join("null" if i == UNKNOWN_ID else str(i) for i in ids) + "]"


def _text_pieces(enc: Encoding, alignment: RowAlignment) -> list[Piece]:
    text = enc.text
    owner = alignment.token_of_char
    split = alignment.split_chars
    out: list[Piece] = []
    for i, ch in enumerate(text):
        t = owner[i]
        shown = "↵" if ch == "\n" else visible_text(ch)
        out.append(Piece(shown, style_of(enc, t, split=i in split and t >= 0), t, (i, i + 1), ch == "\n"))
    return out


def _token_pieces(enc: Encoding, a: RowAlignment, mode: ViewMode) -> list[Piece]:
    raw = enc.text.encode("utf-8", "surrogatepass")
    out: list[Piece] = []
    for t, token_id in enumerate(enc.ids):
        if t:
            out.append(Piece(" ", "space", -1, (a.token_starts[t], a.token_starts[t])))
        if mode == "ids":
            shown = "?" if token_id == UNKNOWN_ID else str(token_id)
        else:
            s, e = enc.byte_spans[t]
            shown = raw[s:e].hex(" ").upper() or "∅"
        out.append(Piece(shown, style_of(enc, t), t, (a.token_starts[t], a.token_ends[t])))
    return out


def _wrap(pieces: list[Piece], width: int) -> list[list[Piece]]:
    """Greedy lines: a piece that does not fit starts a new line (one longer than a line is cut
    into parts); a newline piece ends its line; separators never start a line."""
    lines: list[list[Piece]] = [[]]
    used = 0
    for p in pieces:
        w = p.cells
        if p.style == "space" and used + w > width:
            lines.append([])
            used = 0
            continue
        if used + w > width and lines[-1]:
            lines.append([])
            used = 0
        while w > width:  # a token too long for any line (a long id list never is; bytes may be)
            head, rest = _cut(p.text, width)
            lines[-1].append(Piece(head, p.style, p.token, p.chars))
            lines.append([])
            p = Piece(rest, p.style, p.token, p.chars, p.breaks)
            w = p.cells
        lines[-1].append(p)
        used += w
        if p.breaks:
            lines.append([])
            used = 0
    if not lines[-1] and len(lines) > 1:
        lines.pop()
    return lines


def _cut(text: str, width: int) -> tuple[str, str]:
    used = 0
    for k, ch in enumerate(text):
        used += cell_width(ch)
        if used > width:
            return text[: max(k, 1)], text[max(k, 1) :]
    return text, ""


__all__ = ["VIEW_MODES", "Piece", "ViewMode", "ids_text", "style_of", "text_view"]
