"""Small modal screens: path prompts (open corpus, load tokenizer, save), jump to a rank;
and the main screen, whose focus changes repaint only the widgets they concern.

Each modal returns its answer through ``dismiss`` (None when the user presses escape), so the
app's actions read as ``self.push_screen(PathScreen(...), callback)``.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any, TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import Reactive
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import DirectoryTree, Input, Label, Static

from .textual_compat import lay_out_now, without_sender
from .widgets.safe_text import SafeDirectoryTree, SafeInput

ResultT = TypeVar("ResultT")


class TypeAhead(ModalScreen[ResultT]):
    """A modal with one input to type into (a path, a rank, the tokenizer picker's search): keys
    typed before its input had focus still go into it.

    Why: a real terminal delivers ``ctrl+l gpt2 enter`` typed (or pasted) quickly as one burst.
    The keys after ctrl+l reach the new screen while nothing in it has focus yet, so Textual hands
    them to the screen itself; by the time the screen reads them its input has focus, but nothing
    passed them on, and the dialog stayed open with an empty input (seen in a pty; Pilot never
    shows it, because it waits for the app between two keys). Here such keys are passed to the
    input in order; the input (a SafeInput) runs their enter after them.

    Only those keys: a key the input had and let bubble up (esc) goes on its normal way, to the
    bindings (a first version took every key that reached the screen, and esc no longer closed
    the dialog in a terminal).
    """

    INPUT_ID = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._early_keys: list[events.Key] = []  # come before the input had focus
        self._unfocused_keys: deque[events.Key] = deque(maxlen=256)  # forwarded to the screen itself

    def _forward_event(self, event: events.Event) -> None:
        """Textual gives the screen itself the keys that arrive while nothing in it has focus
        (a private method: :data:`tui.textual_compat.PRIVATE_NAMES` lists it, a test checks it)."""
        if isinstance(event, events.Key):
            self._unfocused_keys.append(event)
        super()._forward_event(event)

    def on_key(self, event: events.Key) -> None:
        if any(key is event for key in self._unfocused_keys):
            self._unfocused_keys.remove(event)
            self.take_typed_ahead(event)

    def _field(self) -> Input | None:
        found = self.query(f"#{self.INPUT_ID}")
        return found.first(Input) if found else None

    def take_typed_ahead(self, event: events.Key) -> bool:
        """Give ``event``, a key meant for the input that did not reach it, to the input -- at once
        if it has focus, else once it takes focus (the dialog is still opening); True if taken."""
        field = self._field()
        focused = self.focused
        if field is None or focused not in (field, None):
            return False
        event.stop()
        event.prevent_default()
        if focused is None:
            self._early_keys.append(event)
        else:
            send_key_again(field, event)  # enter too: the field runs its binding in order (SafeInput)
        return True

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        field = self._field()
        if event.widget is field and field is not None:
            early, self._early_keys = self._early_keys, []
            for key in early:
                send_key_again(field, key)


def send_key_again(widget: Widget, event: events.Key) -> None:
    """Give ``widget`` a key that reached a screen instead, as if typed while it had focus.

    A key made inside a screen's handler has that screen as its sender, and Textual stops a
    message at its sender: a key the widget does not take itself (esc in a dialog, tab) would
    never reach the app's bindings. Sent with no sender, it bubbles all the way, as typed keys do.
    """
    widget.post_message(without_sender(events.Key(event.key, event.character)))


class PathScreen(TypeAhead[str | None]):
    """Ask for a path: type it, or pick it in the directory tree (files fill the input)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    INPUT_ID = "path-input"

    def __init__(self, title: str, *, initial: str = "", hint: str = "", root: str | Path = ".") -> None:
        super().__init__()
        self._title = title
        self._initial = initial
        self._hint = hint
        self._root = Path(root)

    def compose(self) -> ComposeResult:
        with Vertical(classes="modal-box path-box"):
            yield Label(self._title, classes="modal-title")
            yield SafeInput(self._initial, placeholder="path (enter confirms, escape cancels)", id="path-input")
            if self._hint:
                yield Static(Text(self._hint, style="dim"))
            yield SafeDirectoryTree(self._root, id="path-tree")

    def on_mount(self) -> None:
        self.query_one("#path-input", Input).focus()

    def on_directory_tree_file_selected(self, event: DirectoryTree.FileSelected) -> None:
        event.stop()
        self.dismiss(str(event.path))

    def on_directory_tree_directory_selected(self, event: DirectoryTree.DirectorySelected) -> None:
        event.stop()
        self.query_one("#path-input", Input).value = str(event.path)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        if value:
            self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class JumpScreen(TypeAhead[int | None]):
    """Ask for a merge rank (1-based, as the list shows it); 0 goes back to the alphabet."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    INPUT_ID = "jump-input"

    def __init__(self, available: int) -> None:
        super().__init__()
        self._available = available

    def compose(self) -> ComposeResult:
        with Vertical(classes="modal-box jump-box"):
            yield Label(f"Jump to merge # (0–{self._available:,})", classes="modal-title")
            yield SafeInput(type="integer", placeholder="rank, e.g. 100", id="jump-input")
            yield Static("", id="jump-error", markup=False)

    def on_mount(self) -> None:
        self.query_one("#jump-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        raw = event.value.strip()
        if not raw.isdigit() or int(raw) > self._available:
            self.query_one("#jump-error", Static).update(
                Text(f"enter a number from 0 to {self._available:,}", style="bold red")
            )
            return
        self.dismiss(int(raw))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ExplorerScreen(Screen):
    """The app's main screen: a focus change repaints the two widgets it concerns, not the screen.

    Textual's ``Screen.focused`` is a repainting reactive, so every focus move redrew every cell,
    and a tab switch moves the focus twice (dropped, then given to the new tab): two full frames
    on top of the one showing the new tab, 85-125 KB written per f2/f3/f4 at 120x40 instead of
    ~50 KB. Nothing needs them: the widgets gaining and losing focus repaint themselves
    (``Widget._on_focus`` / ``_on_blur``), ``:focus`` and ``:focus-within`` styles are re-applied
    by ``set_focus``, and the footer follows the bindings. A pty dump of the screen's cells and
    colours through tab switches, tab and esc was identical with and without them.
    """

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._held_keys: list[events.Key] | None = None  # None: keys are not being held

    # -- keys typed while a tab is being mounted --------------------------------------------------
    def hold_keys(self) -> None:
        """Keep the keys that reach the screen from now on, for the widget :meth:`release_keys`
        names. Why: the first f3 / f4 mounts its pane (~1 s), and a user who types at once typed
        into nothing -- the keys reached the screen while no widget had focus and were dropped."""
        if self._held_keys is None:
            self._held_keys = []

    def release_keys(self, widget: Widget | None) -> None:
        """Pass the held keys, in order, to ``widget`` (the new tab's text box); None drops them."""
        held, self._held_keys = self._held_keys or [], None
        if widget is None:
            return
        for key in held:
            send_key_again(widget, key)

    def on_key(self, event: events.Key) -> None:
        if self._held_keys is not None and self.focused is None:
            event.stop()
            event.prevent_default()
            self._held_keys.append(event)

    def lay_out_next_frame(self) -> None:
        """Lay out every widget whose size or visibility just changed on the very next screen
        update, in one pass.

        Textual lays out a shown or hidden widget only after its Layout message has climbed to
        the screen, which waits for the widget's idle and then behind the screen's queue: after a
        tab switch the tab row was painted first, the new tab ~30-50 ms later, and the footer's
        keys in a third frame. This does at once what each widget's idle would do (forget its
        ancestors' arrangements; Textual's ``Widget._check_refresh``) without the message, and
        asks the screen for one layout.
        """
        lay_out_now(self)
        self.refresh(repaint=False, layout=True)
