"""Editing widgets that can hold any text without letting its control characters reach the terminal.

An editor must keep its text exactly (training uses the corpus byte for byte; Inspect and Compare
encode exactly what was typed or pasted), but Textual's ``TextArea`` and ``Input`` paint text as it
is: an ESC, OSC, C1 control or bidi override typed, pasted or loaded would be written to the
terminal (retitling it, clearing the screen). :class:`SafeTextArea` and :class:`SafeInput`
rewrite each painted line instead; :class:`SafeDirectoryTree` labels file names the same way,
in the safe visible form every other view uses (:func:`bpe_engine.display.visible_text`: ``␛``
for ESC, ``<U+009B>``, ``<RLO>``, ``<ZWJ>``, ``<BOM>``). A field shows one-cell marks instead --
Control Pictures (``␛``) for C0 controls, ``␡`` for DEL, ``¤`` for C1 controls, ``¦`` for bidi,
zero-width and format characters (:func:`one_cell_marks`) -- because its cursor and wrapping are
computed on the real text: a five-cell ``<ZWJ>`` would push what you type at the end of the line
out of sight. A text area wraps its lines counting each mark as the cell it is painted in
(:func:`measure_marks_when_wrapping`). The text itself is untouched either way.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import DirectoryTree, Input, TextArea

from bpe_engine.display import visible_text

from ..textual_compat import own_bindings, propagation_stopped, replace_via_keyboard, restart_blink, wrap_lines_as, wrap_settings

FIELD_CAPACITY = 20_000
"""Characters a one-line field holds. Textual's Input measures its whole value on every key and
every paint (2 s per key at 1 MB, measured): a 10 MB paste into Inspect froze the app for ~40 s."""
AREA_CAPACITY = 30_000
"""Characters a text area edits. Textual's TextArea re-wraps every line whenever its size changes
(200 ms per layout at 100,000 characters; 0.18 s per key at 1 MB, measured): keys typed meanwhile
came out garbled. The corpus pane shows a bigger corpus as a read-only preview of its head."""


def paste_note(pasted: int, kept: int, capacity: int, *, how: str = "pasted") -> str:
    """What a field says when a text did not fit: what it kept, of what, and why.

    >>> paste_note(10_000_000, 19_990, 20_000)
    'pasted 10,000,000 characters; this box holds 20,000, so the first 19,990 were kept'
    """
    return f"{how} {pasted:,} characters; this box holds {capacity:,}, so the first {kept:,} were kept"


_LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
"""Where ``str.splitlines`` breaks a line."""


def first_line(text: str) -> str:
    """``text.splitlines()[0]`` (what Input keeps of a paste) without splitting all of ``text``.

    >>> first_line("one\\u2028two\\nthree")
    'one'
    """
    found = _LINE_BREAK.search(text)
    return text if found is None else text[: found.start()]


_INVISIBLE = (
    [0x00AD, 0x061C, 0x180E, 0x2028, 0x2029, 0xFEFF]
    + list(range(0x200B, 0x2010))
    + list(range(0x202A, 0x202F))
    + list(range(0x2060, 0x2065))
    + list(range(0x2066, 0x206A))
)
_ONE_CELL: dict[int, str] = {c: chr(0x2400 + c) for c in range(0x20) if c not in (0x09, 0x0A)}
_ONE_CELL[0x7F] = "␡"
_ONE_CELL.update({c: "¤" for c in range(0x80, 0xA0)})  # C1 controls (U+009B is a whole CSI)
_ONE_CELL.update({c: "¦" for c in _INVISIBLE})


_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Cn", "Zl", "Zp"})
"""Categories :func:`bpe_engine.display.visible_text` makes visible (tab and newline aside)."""


def one_cell_marks(text: str) -> str:
    """``text`` with each hidden or control character replaced by a one-cell mark, one code point
    for one (tab and newline kept): offsets into it are offsets into ``text``.

    >>> one_cell_marks("a\\x1b[31m\\u202eb\\x9b\\ufeff\\U000e0001\\t")
    'a␛[31m¦b¤¦¦\\t'
    """
    if text.isprintable():
        return text
    out = text.translate(_ONE_CELL)
    if out.isprintable():
        return out
    return "".join(c if c.isprintable() or c in "\t\n" or unicodedata.category(c) not in _HIDDEN else "¦" for c in out)


def safe_segment_text(text: str, *, named: bool = False) -> str:
    """``text`` with every character that could act on a terminal made visible.

    >>> safe_segment_text("a\\x1b[31m\\u202eb\\x9b\\ufeff")
    'a␛[31m¦b¤¦'
    >>> safe_segment_text("a\\x1b[31m\\u202eb\\x9b\\ufeff", named=True)
    'a␛[31m<RLO>b<U+009B><BOM>'
    """
    if text.isprintable():
        return text
    if named:
        return visible_text(text)
    out = one_cell_marks(text)
    return out if out.isprintable() else visible_text(out)  # tab and newline: ⇥ and ↵


def measure_marks_when_wrapping() -> None:
    """Make Textual's text areas wrap a line as it is painted: with its marks one cell each.

    Textual measures a zero-width character (a BOM, ZWJ, an ESC) as no cell when it wraps a line;
    painted as a one-cell mark it pushed the line's last characters past the edge, where they
    were cut ("), " lost after "(Master Darling" on a line with a BOM). Wrap offsets are code point
    indices, and :func:`one_cell_marks` keeps them, so wrapping the marked line gives the offsets
    of the line as painted. Textual offers no hook (:func:`tui.textual_compat.wrap_lines_as`).
    """
    wrap_lines_as(one_cell_marks)


def safe_strip(strip: Strip, *, named: bool = False) -> Strip:
    """``strip`` with every hazardous character replaced, at the same cell length."""
    segments = list(strip)
    if all(seg.text.isprintable() for seg in segments):
        return strip
    safe = Strip([Segment(safe_segment_text(seg.text, named=named), seg.style, seg.control) for seg in segments])
    # A zero-width character (ZWJ, bidi control) became a one-cell mark: keep the line's width
    # so the border stays put (the line's last cells give way instead).
    return safe.adjust_cell_length(strip.cell_length)


def typed_text(event: events.Key) -> str | None:
    """The text a key types that Textual would drop, or None.

    Textual's fields take a key's character only if ``str.isprintable()`` says so, which it does
    not for an ideographic space (U+3000, the space of a CJK input method), a no-break space,
    ZWJ (the glue of 👩‍💻, from an emoji picker), zero-width and bidi marks, private-use
    characters, or an emoji newer than Python's Unicode tables: typed, they vanished without a
    word, and the text encoded was not the text typed. Every character but a control (enter, tab,
    escape, backspace and ctrl keys, which stay keys) is text.
    """
    text = event.character
    if not text or event.is_printable or any(unicodedata.category(c) == "Cc" for c in text):
        return None
    return text


class TooLong(Message):
    """A paste would take a field past its capacity. Posted instead of inserting when the field
    was made with ``keep_whole``: its owner holds ``text``, the whole text the paste would make
    (the corpus editor trains on all of it and shows its head)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class SafeTextArea(TextArea):
    """TextArea whose painted lines never carry raw control, escape or bidi characters, whose
    bound keys keep their order with typed characters (:func:`run_own_binding`), and which holds
    at most ``capacity`` characters through a paste (the rest is cut and the user told, or, with
    ``keep_whole``, handed to the owner as :class:`TooLong`)."""

    TooLong = TooLong

    def __init__(self, *args: Any, capacity: int = AREA_CAPACITY, keep_whole: bool = False, **kwargs: Any) -> None:
        measure_marks_when_wrapping()
        super().__init__(*args, **kwargs)
        self.capacity = capacity
        self.keep_whole = keep_whole

    async def _on_paste(self, event: events.Paste) -> None:
        if self.read_only or not event.text:
            return  # TextArea's own handler runs next (and ignores a read-only area)
        start, end = sorted(self.selection)
        before = self.get_text_range((0, 0), start)
        after = self.get_text_range(end, self.document.end)
        room = self.capacity - len(before) - len(after)
        if len(event.text) <= room:
            return  # it fits: TextArea's own handler inserts it
        event.stop()
        event.prevent_default()
        if self.keep_whole:
            self.post_message(TooLong(before + event.text + after))
            return
        kept = event.text[: max(0, room)]
        edit = replace_via_keyboard(self, kept, start, end) if kept else None  # None: read-only
        if edit is not None:
            self.move_cursor(edit.end_location)
        self.notify(paste_note(len(event.text), len(kept), self.capacity), severity="warning", markup=False)

    def render_line(self, y: int) -> Strip:
        # one-cell marks, read-only too: the wrapping counts one cell for each (a named <BOM> was
        # five, and cut four characters off the end of a wrapped line)
        return safe_strip(super().render_line(y))

    async def _on_key(self, event: events.Key) -> None:
        text = typed_text(event)
        if text is not None:
            event.stop()
            event.prevent_default()
            replace_via_keyboard(self, text, *self.selection)  # as TextArea types a character
            return
        await super()._on_key(event)  # characters, enter (and tab when it indents) go in here
        if not event.is_printable and not propagation_stopped(event):  # not taken above
            await run_own_binding(self, event)

    def on_resize(self, event: events.Resize) -> None:
        """Re-wrap only when the wrap width changed. Textual sends a Resize to every widget shown
        again (each tab switch), and TextArea re-wraps its whole text on each: a py-spy profile of
        f2/f4 put ~5 % of the switch in re-wrapping text whose width had not moved. Edits keep the
        wrapping current themselves, so an unchanged width means an unchanged wrapping."""
        if wrap_settings(self.wrapped_document) == (self.wrap_width, self.indent_width):
            event.prevent_default()  # TextArea's own handler (next in the MRO) would re-wrap


async def run_own_binding(widget: Widget, event: events.Key) -> bool:
    """Run ``widget``'s own binding for ``event`` now; True if one ran (the key is then used up).

    Textual inserts a typed character the moment it arrives but applies a bound key (backspace,
    arrows, ctrl+u, ctrl+w, enter...) only after it has travelled up the widget tree to the app;
    while the app is busy that trip takes longer than a fast typist's next key, which overtakes it:
    "1000, backspace x4, 3000" came out as "3" (seen in a real terminal on a 1 MB corpus), and
    ctrl+u then a path lost the path. Textual's issue #6605 (open PR #6631 does the same). The
    focused widget is the first place the app looks for a binding, so the same binding runs --
    only at once, in order with the characters. Priority bindings ran before the key got here.
    """
    for binding in own_bindings(widget, event.key):
        if not binding.priority and await widget.app.run_action(binding.action, widget):
            event.stop()
            event.prevent_default()
            return True
    return False


class SafeInput(Input):
    """Input whose painted line never carries raw control, escape or bidi characters, and whose
    bound keys keep their order with typed characters (:func:`run_own_binding`).

    With ``keep_lines`` a paste keeps all its lines (Input shows a line break as ``↵``): Input
    keeps a paste's first line only, so a paragraph pasted into Inspect was encoded as its first
    line, without a word. Line ends come as the newline a text area would make of them.

    A paste keeps at most what fits in ``capacity`` characters and says what it cut; typing stops
    there too (Input's ``max_length``).
    """

    def __init__(self, *args: Any, keep_lines: bool = False, capacity: int = FIELD_CAPACITY, **kwargs: Any) -> None:
        super().__init__(*args, max_length=capacity, **kwargs)
        self.keep_lines = keep_lines
        self.capacity = capacity

    def render_line(self, y: int) -> Strip:
        return safe_strip(super().render_line(y))

    async def _on_key(self, event: events.Key) -> None:
        if event.is_printable:
            await super()._on_key(event)
            return
        restart_blink(self)
        text = typed_text(event)
        if text is not None:
            event.stop()
            event.prevent_default()
            self._type(text)
            return
        await run_own_binding(self, event)

    def _on_paste(self, event: events.Paste) -> None:
        if not event.text:
            return  # Input's own handler runs next
        event.stop()
        event.prevent_default()
        if self.keep_lines:
            text = event.text.replace("\r\n", "\n").replace("\r", "\n")
        else:
            text = first_line(event.text)
        start, end = sorted(self.selection)
        room = self.capacity - (len(self.value) - (end - start))
        if len(text) > room:
            self.notify(paste_note(len(text), max(0, room), self.capacity), severity="warning", markup=False)
            text = text[: max(0, room)]
        self._type(text)

    def hold(self, text: str) -> None:
        """Make ``text`` the value, cut to the capacity as a paste is (and saying so)."""
        if len(text) > self.capacity:
            self.notify(paste_note(len(text), self.capacity, self.capacity, how="given"), severity="warning", markup=False)
        self.value = text[: self.capacity]

    def _type(self, text: str) -> None:
        """Put ``text`` at the cursor or over the selection, as Input does with a character."""
        if self.selection.is_empty:
            self.insert_text_at_cursor(text)
        else:
            self.replace(text, *self.selection)


class SafeDirectoryTree(DirectoryTree):
    """Textual's file picker, with each file or directory name in the safe visible form.

    A name may hold anything but ``/`` and NUL: a directory named ``\\x1b]0;T\\x07\\x1b[2J`` would
    retitle the terminal and clear the screen when the tree painted it. The label only changes;
    the node's path (what is opened) stays the real one.
    """

    def process_label(self, label: str | Text) -> Text:
        if isinstance(label, str):
            return Text(visible_text(label))
        return super().process_label(label)
