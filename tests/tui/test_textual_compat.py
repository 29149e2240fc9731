"""Every private Textual name the app uses still exists and still means what tui/textual_compat.py
takes it to mean: a Textual upgrade that moves one fails here, by name, instead of in a terminal.

Each use is checked as it is made: a patched name is patched where Textual reads it, an attribute
read is read off a real message, widget or document and compared with what Textual's public API
says, an overridden method is still there to override.
"""

from __future__ import annotations

import importlib
import inspect

import pytest
import textual.command
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.document._document import Document
from textual.document._wrapped_document import WrappedDocument
from textual.drivers import linux_driver
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input, Select, TextArea

from tui import textual_compat as compat
from tui.commands import SafeCommandInput
from tui.paste_parser import PasteParser, install
from tui.widgets.safe_text import SafeTextArea


@pytest.mark.parametrize(("module", "cls", "method"), compat.OVERRIDDEN)
def test_each_overridden_private_method_is_still_there(module: str, cls: str, method: str) -> None:
    owner = getattr(importlib.import_module(module), cls)
    assert callable(getattr(owner, method, None)), f"{module}.{cls}.{method} moved: our subclass overrides it"


def test_the_private_classes_are_textuals_own() -> None:
    """The ones its widgets build: an open Select's list, the footer's keys, the input parser."""
    assert isinstance(Select([("a", "a")]), Widget) and compat.SelectOverlay.__module__ == "textual.widgets._select"
    assert compat.FooterKey.__module__ == compat.FooterLabel.__module__ == "textual.widgets._footer"
    assert issubclass(compat.XTermParser, object) and hasattr(compat.XTermParser, "feed")
    assert "SelectOverlay" in inspect.getsource(importlib.import_module("textual.widgets._select"))
    assert "FooterKey(" in inspect.getsource(Footer.compose)
    first, second = compat.get_time(), compat.get_time()
    assert isinstance(first, float) and second >= first


def test_the_input_parser_is_built_by_the_name_we_point() -> None:
    install()
    assert linux_driver.XTermParser is PasteParser
    assert "XTermParser(" in inspect.getsource(linux_driver)  # the driver builds its parser by that name


def test_the_palette_box_is_built_by_the_name_we_point() -> None:
    assert textual.command.CommandInput is SafeCommandInput  # tui.commands points it on import
    assert "CommandInput(" in inspect.getsource(textual.command.CommandPalette.compose)


def test_wrapping_measures_the_painted_line() -> None:
    from textual.document import _wrapped_document as wrapped

    SafeTextArea("x")  # points the name once
    patched = wrapped.compute_wrap_offsets
    compat.wrap_lines_as(str.upper)  # a second call keeps the first wrapper
    assert wrapped.compute_wrap_offsets is patched and patched.__name__ == "compute_painted_wrap_offsets"
    assert "compute_wrap_offsets(" in inspect.getsource(WrappedDocument)  # the document wraps by that name
    # a BOM is painted one cell wide: a line of it and four letters no longer fits in four cells
    from textual._wrap import compute_wrap_offsets

    assert compute_wrap_offsets("\ufeffabcd", 4, 4) == [] and patched("\ufeffabcd", 4, 4) == [4]


def test_a_message_without_sender_and_a_stopped_one() -> None:
    key = events.Key("a", "a")
    assert compat.propagation_stopped(key) is False
    key.stop()  # the public way to stop it; the private flag is what we read
    assert compat.propagation_stopped(key) is True
    assert compat.without_sender(key)._sender is None
    assert "_sender" in inspect.getsource(importlib.import_module("textual.message_pump"))  # where a message stops


def test_the_wrap_settings_are_the_documents_width_and_tab_width() -> None:
    document = WrappedDocument(Document("one two three"), width=7, tab_width=2)
    assert compat.wrap_settings(document) == (7, 2)
    document.wrap(9, 3)
    assert compat.wrap_settings(document) == (9, 3)


class _Host(App[None]):
    BINDINGS = [Binding("ctrl+q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield _Bound()
        yield TextArea("ab", id="area")
        yield Input("x", id="field")


class _Bound(Widget, can_focus=True):
    BINDINGS = [Binding("ctrl+k", "noop", "Noop")]


async def test_the_private_calls_on_live_widgets() -> None:
    async with App.run_test(_Host()) as pilot:
        app = pilot.app
        bound = app.query_one(_Bound)
        assert [b.action for b in compat.own_bindings(bound, "ctrl+k")] == ["noop"]
        assert compat.own_bindings(bound, "ctrl+q") == ()  # the app's, not the widget's own
        area = app.query_one("#area", TextArea)
        edit = compat.replace_via_keyboard(area, "Z", (0, 1), (0, 2))
        assert edit is not None and area.text == "aZ" and edit.end_location == (0, 2)
        area.read_only = True
        assert compat.replace_via_keyboard(area, "Y", (0, 0), (0, 1)) is None and area.text == "aZ"
        compat.restart_blink(app.query_one("#field", Input))


async def test_laying_out_at_once_reads_the_widgets_layout_flags() -> None:
    async with App.run_test(_Host()) as pilot:
        screen: Screen[None] = pilot.app.screen
        area = pilot.app.query_one("#area", TextArea)
        for name in ("_repaint_required", "_layout_required", "_layout_updates"):
            assert hasattr(area, name), name
        assert callable(area._clear_arrangement_cache) and isinstance(screen._dirty_widgets, set)
        area.styles.height = 5  # a size change: Textual marks it for layout
        assert area._layout_required
        compat.lay_out_now(screen)
        assert not area._layout_required
