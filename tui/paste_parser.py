"""A terminal input parser that takes a bracketed paste whole, exactly and at once.

Textual's parser reads a paste one character at a time through its escape-sequence machine:
0.67 s and a ten-million-item list per 10 MB pasted (measured), on the input thread, before the
app sees the paste. Worse, an ESC inside the paste starts an escape sequence there: the next 32
characters leave the paste and arrive as typed keys, the ESC as ``^``, before the paste itself
(``A␛[2JB…E`` arrived in Inspect as ``^[2JBCD^]0;TEA``). A pasted text is text, whatever it holds,
until the terminal's end marker: this parser finds the markers with ``str.find`` and hands
everything between them over as one :class:`~textual.events.Paste` (NUL removed, as Textual does,
its issue #1661). Everything else goes to Textual's parser unchanged.

A read that ends in what may be the start of a marker keeps those characters until the next read
(or, if none comes, hands them on after Textual's escape delay). Only a read ending in a lone ESC
is handed on at once -- it is most often the escape key -- so a start marker cut right after its
ESC is left to Textual's parser, which then reads that paste as it always did.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual import constants, events
from textual.message import Message

from .textual_compat import XTermParser, get_time, use_input_parser

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"


def _partial(data: str, marker: str) -> int:
    """How many characters at the end of ``data`` could begin ``marker``.

    >>> _partial("abc\x1b[20", PASTE_START), _partial("abc", PASTE_START)
    (4, 0)
    """
    for n in range(min(len(marker) - 1, len(data)), 0, -1):
        if marker.startswith(data[-n:]):
            return n
    return 0


class PasteParser(XTermParser):
    """:class:`XTermParser` with bracketed pastes taken whole (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pasted: list[str] | None = None  # the paste read so far, while inside one
        self._tail = ""  # the end of a read that may be the start of a marker
        self._tail_time = 0.0

    def feed(self, data: str) -> Iterable[Message]:
        if not data:
            if self._pasted is not None:  # the input ended inside a paste: what came is the paste
                yield self._paste()
            yield from super().feed(data)
            return
        data, self._tail = self._tail + data, ""
        while data:
            if self._pasted is not None:
                end = data.find(PASTE_END)
                if end < 0:
                    keep = _partial(data, PASTE_END)
                    self._pasted.append(data[: len(data) - keep])
                    self._tail = data[len(data) - keep :]
                    return
                self._pasted.append(data[:end])
                yield self._paste()
                data = data[end + len(PASTE_END) :]
                continue
            start = data.find(PASTE_START)
            if start < 0:
                keep = _partial(data, PASTE_START)
                keep = keep if keep > 1 else 0  # a lone ESC is the escape key's business
                if len(data) > keep:
                    yield from super().feed(data[: len(data) - keep])
                self._tail, self._tail_time = data[len(data) - keep :], get_time()
                return
            if start:
                yield from super().feed(data[:start])
            self._pasted = []
            data = data[start + len(PASTE_START) :]

    def tick(self) -> Iterable[Message]:
        """Hand on a held start of a marker once no more input came for the escape delay."""
        if self._tail and self._pasted is None and get_time() - self._tail_time >= constants.ESCAPE_DELAY:
            tail, self._tail = self._tail, ""
            yield from super().feed(tail)
        yield from super().tick()

    def _paste(self) -> events.Paste:
        text = "".join(self._pasted or ())
        self._pasted = None
        return events.Paste(text.replace("\x00", ""))


def install() -> None:
    """Make Textual's terminal driver read input with :class:`PasteParser`.

    Textual offers no hook for the parser: its Linux driver (macOS uses it too) builds the class
    its module names, so the name is pointed at ours (:func:`tui.textual_compat.use_input_parser`).
    """
    use_input_parser(PasteParser)
