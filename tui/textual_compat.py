"""Every private Textual name the app relies on, in one place, each checked by a test.

Textual (pinned at 8.2.8 for the snapshots) offers no public hook for a few things the app must do:
read a bracketed paste whole, paint the command palette's box safely, wrap a line as it is painted,
pass on keys a screen received before its input had focus, run a widget's own binding in order with
typed characters, and lay out a shown tab in the frame that shows it. Each of those reaches a private
name, and each private name is reached from here only, so a Textual upgrade that moves one breaks
one module and one test (``tests/tui/test_textual_compat.py`` asserts every name below exists and
means what the code here takes it to mean) instead of the app at run time.

Three uses are method overrides, which must stay in their classes; :data:`OVERRIDDEN` lists them for
the test: ``Screen._forward_event`` (:class:`tui.screens.TypeAhead`), ``Input._on_key`` and
``TextArea._on_key`` (the safe fields in :mod:`tui.widgets.safe_text`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.widget import Widget
from textual.widgets._footer import FooterKey, FooterLabel
from textual.widgets._select import SelectOverlay

if TYPE_CHECKING:
    from textual.binding import Binding
    from textual.command import CommandInput
    from textual.document._edit import EditResult
    from textual.document._wrapped_document import WrappedDocument
    from textual.message import Message
    from textual.screen import Screen
    from textual.widgets import Input, TextArea

OVERRIDDEN: tuple[tuple[str, str, str], ...] = (
    ("textual.screen", "Screen", "_forward_event"),
    ("textual.widgets", "Input", "_on_key"),
    ("textual.widgets", "TextArea", "_on_key"),
)
"""(module, class, method): the private methods our subclasses override (see the module docstring)."""


# -- names Textual builds by the name its module holds (no hook: the name is pointed at ours) -------
def use_input_parser(parser: type[XTermParser]) -> None:
    """Make the Linux driver (macOS uses it too) read terminal input with ``parser``
    (:class:`tui.paste_parser.PasteParser`). Windows reads keys another way and keeps its own."""
    from textual.drivers import linux_driver

    linux_driver.XTermParser = parser  # type: ignore[misc]  # a class's name rebound: the point of this function


def use_command_input(box: type[CommandInput]) -> None:
    """Make the command palette build its search box as ``box`` (:class:`tui.commands.SafeCommandInput`)."""
    import textual.command

    textual.command.CommandInput = box  # type: ignore[misc]  # a class's name rebound: the point of this function


def wrap_lines_as(painted: Callable[[str], str]) -> None:
    """Make every text area wrap a line as ``painted(line)`` (same length, one cell per mark), once.

    Textual's wrapped document calls ``compute_wrap_offsets`` from its own module; the name is
    pointed at a wrapper that measures the painted line (:func:`tui.widgets.safe_text.one_cell_marks`)."""
    from textual.document import _wrapped_document as wrapped

    original = wrapped.compute_wrap_offsets
    if original.__name__ == "compute_painted_wrap_offsets":
        return

    def compute_painted_wrap_offsets(text: str, *args: Any, **kwargs: Any) -> list[int]:
        return original(painted(text), *args, **kwargs)

    wrapped.compute_wrap_offsets = compute_painted_wrap_offsets


# -- private attributes and methods read or called -----------------------------------------------
def without_sender(message: Message) -> Message:
    """``message`` with no sender: Textual stops a message at its sender, so a key made in a screen's
    handler would never bubble to the app's bindings (:func:`tui.screens.send_key_again`)."""
    message._sender = None
    return message


def propagation_stopped(message: Message) -> bool:
    """Whether a handler called ``stop()`` on ``message`` (Textual keeps no public flag)."""
    return message._stop_propagation


def own_bindings(widget: Widget, key: str) -> tuple[Binding, ...]:
    """The bindings ``widget`` itself declares for ``key`` (:func:`tui.widgets.safe_text.run_own_binding`)."""
    return tuple(widget._bindings.key_to_bindings.get(key, ()))


def wrap_settings(document: WrappedDocument) -> tuple[int | None, int | None]:
    """The width and tab width ``document`` last wrapped to (None if Textual renamed them: the
    caller then re-wraps, as Textual would)."""
    return getattr(document, "_width", None), getattr(document, "_tab_width", None)


def replace_via_keyboard(area: TextArea, text: str, start: tuple[int, int], end: tuple[int, int]) -> EditResult | None:
    """Replace ``start..end`` of ``area`` with ``text`` as typing does (one undo step, read-only
    respected: None then)."""
    return area._replace_via_keyboard(text, start, end)


def restart_blink(field: Input) -> None:
    """Show ``field``'s cursor at once, as Textual does after a key it handles itself."""
    field._restart_blink()


def lay_out_now(screen: Screen[Any]) -> None:
    """Lay out every widget of ``screen`` whose size or visibility just changed in the next frame,
    in one pass (:meth:`tui.screens.ExplorerScreen.lay_out_next_frame` says why): what each
    widget's idle would do (Textual's ``Widget._check_refresh``), without the message."""
    for widget in screen.walk_children(Widget):
        if widget._repaint_required:  # e.g. restyled by the focus move: drawn in the same frame
            widget._repaint_required = False
            if widget.display:
                screen._dirty_widgets.add(widget)
        if not widget._layout_required:
            continue
        widget._layout_required = False
        for ancestor in widget.ancestors:
            if not isinstance(ancestor, Widget):
                break
            ancestor._clear_arrangement_cache()
            ancestor._layout_updates += 1
            if not ancestor.styles.auto_dimensions:
                break


__all__ = [
    "OVERRIDDEN",
    "FooterKey",
    "FooterLabel",
    "SelectOverlay",
    "XTermParser",
    "get_time",
    "lay_out_now",
    "own_bindings",
    "propagation_stopped",
    "replace_via_keyboard",
    "restart_blink",
    "use_command_input",
    "use_input_parser",
    "without_sender",
    "wrap_lines_as",
    "wrap_settings",
]
