"""A TextArea that can hold any corpus without letting its control characters reach the terminal.

The editor must keep the corpus text exactly (training uses it byte for byte), but Textual's
TextArea paints lines as they are: an ESC, OSC, C1 control or bidi override in the corpus would
be written to the terminal. :class:`SafeTextArea` rewrites each painted line instead: C0 controls
become their Control Pictures (``␛``), other invisible or format characters ``�``. The replacements
are one cell wide, so on a line holding zero-width characters the cursor may sit a cell off and the
line's last cell gives way; the text itself is untouched.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.strip import Strip
from textual.widgets import TextArea

_INVISIBLE = (
    [0x00AD, 0x061C, 0x180E, 0x2028, 0x2029, 0xFEFF]
    + list(range(0x200B, 0x2010))
    + list(range(0x202A, 0x202F))
    + list(range(0x2060, 0x2065))
    + list(range(0x2066, 0x206A))
)
_TABLE: dict[int, str] = {c: chr(0x2400 + c) for c in range(0x20) if c not in (0x09, 0x0A)}
_TABLE[0x7F] = "␡"
_TABLE.update({c: "\ufffd" for c in range(0x80, 0xA0)})
_TABLE.update({c: "\ufffd" for c in _INVISIBLE})


def safe_segment_text(text: str) -> str:
    """``text`` with every character that could act on a terminal replaced by a visible one.

    >>> safe_segment_text("a\\x1b[31m\\u202eb")
    'a␛[31m\\ufffdb'
    """
    return text if text.isprintable() else text.translate(_TABLE)


class SafeTextArea(TextArea):
    """TextArea whose painted lines never carry raw control, escape or bidi characters."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        segments = list(strip)
        if all(seg.text.isprintable() for seg in segments):
            return strip
        safe = Strip([Segment(safe_segment_text(seg.text), seg.style, seg.control) for seg in segments])
        # A zero-width character (ZWJ, bidi control) became a one-cell mark: keep the line's width
        # so the border stays put (the line's last cells give way instead).
        return safe.adjust_cell_length(strip.cell_length)
