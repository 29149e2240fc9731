"""Editing widgets that can hold any text without letting its control characters reach the terminal.

An editor must keep its text exactly (training uses the corpus byte for byte; Inspect and Compare
encode exactly what was typed or pasted), but Textual's ``TextArea`` and ``Input`` paint text as it
is: an ESC, OSC, C1 control or bidi override typed, pasted or loaded would be written to the
terminal (retitling it, clearing the screen). :class:`SafeTextArea` and :class:`SafeInput`
rewrite each painted line instead: C0 controls become their Control Pictures (``␛``), DEL ``␡``,
C1 controls and invisible or format characters (bidi, zero-width, BOM) a one-cell mark. The marks
are one cell wide so the cursor stays where the text is (read-only views show the longer named
forms such as ``<RLO>``); on a line holding zero-width characters the cursor may sit a cell off and
the line's last cell gives way. The text itself is untouched.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.strip import Strip
from textual.widgets import Input, TextArea

_INVISIBLE = (
    [0x00AD, 0x061C, 0x180E, 0x2028, 0x2029, 0xFEFF]
    + list(range(0x200B, 0x2010))
    + list(range(0x202A, 0x202F))
    + list(range(0x2060, 0x2065))
    + list(range(0x2066, 0x206A))
)
_TABLE: dict[int, str] = {c: chr(0x2400 + c) for c in range(0x20) if c not in (0x09, 0x0A)}
_TABLE[0x7F] = "␡"
_TABLE.update({c: "¤" for c in range(0x80, 0xA0)})  # C1 controls (U+009B is a whole CSI)
_TABLE.update({c: "¦" for c in _INVISIBLE})  # bidi, zero-width, BOM: a visible bar where they sit


def safe_segment_text(text: str) -> str:
    """``text`` with every character that could act on a terminal replaced by a visible one.

    >>> safe_segment_text("a\\x1b[31m\\u202eb\\x9b")
    'a␛[31m¦b¤'
    """
    return text if text.isprintable() else text.translate(_TABLE)


def safe_strip(strip: Strip) -> Strip:
    """``strip`` with every hazardous character replaced, at the same cell length."""
    segments = list(strip)
    if all(seg.text.isprintable() for seg in segments):
        return strip
    safe = Strip([Segment(safe_segment_text(seg.text), seg.style, seg.control) for seg in segments])
    # A zero-width character (ZWJ, bidi control) became a one-cell mark: keep the line's width
    # so the border stays put (the line's last cells give way instead).
    return safe.adjust_cell_length(strip.cell_length)


class SafeTextArea(TextArea):
    """TextArea whose painted lines never carry raw control, escape or bidi characters."""

    def render_line(self, y: int) -> Strip:
        return safe_strip(super().render_line(y))


class SafeInput(Input):
    """Input whose painted line never carries raw control, escape or bidi characters."""

    def render_line(self, y: int) -> Strip:
        return safe_strip(super().render_line(y))
