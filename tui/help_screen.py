"""The help screen (f1 or ?): every key, read from the bindings themselves so it cannot drift.

Three parts: the app's keys; the keys of the tab on screen -- its pane's and those of the app's own
widgets in it (the Compare rows, the k slider, the token chips, the merge list), each under its
widget's ``HELP_TITLE``; then the keys Textual's own widgets take. The first help listed only the
app's bindings: Compare's ``a v c B x J K [ ] f`` and Inspect's ``m v c i b t`` were nowhere in it,
and at 80x24 the list was cut after ``+ / =`` with no way to scroll to the rest.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.keys import format_key
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Label, Static

ACTION_HELP = {
    "train": "train (or retrain) on the corpus with the settings shown",
    "cancel": "cancel the running training (merges so far stay)",
    "next": "next merge: apply one more merge to the corpus",
    "prev": "back: undo the last applied merge",
    "play": "play / pause: animate forward through the merges",
    "jump": "jump to a merge number",
    "first": "first: no merges (the initial alphabet)",
    "last": "last: every merge applied",
    "faster": "play faster",
    "slower": "play slower",
    "open_corpus": "open a text file as the corpus",
    "save": "save the trained tokenizer (every format) into a directory",
    "load_tokenizer": "load a tokenizer file or name (gpt2, …) and step through its merges",
    "help": "this help",
    "next_view": "small terminal: next Train view (setup -> merges -> why)",
    "show_tab('train-tab')": "show the Train tab (corpus, settings, merges)",
    "show_tab('inspect-tab')": "show the Inspect tab (tokenize text with the tokenizer at the current step)",
    "show_tab('compare-tab')": "show the Compare tab (the tokenizer at this step against reference tokenizers)",
}
"""Long descriptions of the app's bindings (the footer keeps the short ones)."""

APP_EXTRA_KEYS = [("ctrl+p", "command palette: every action by name"), ("ctrl+q", "quit")]
"""Keys Textual's App binds itself."""

WIDGET_KEYS = [
    ("tab / shift+tab", "move the keyboard to the next / previous control"),
    ("ctrl+z / ctrl+y", "undo / redo typing (the corpus, the Compare text)"),
    ("enter", "confirm a prompt (path, jump, picker)"),
    ("esc", "close a prompt without doing anything"),
    ("mouse", "click any field, row, tab, token or button; scroll with the wheel"),
]
"""Keys handled by Textual's widgets rather than by bindings of ours."""

Rows = list[tuple[str, str]]


def key_text(keys: str) -> str:
    """How the help writes a binding's keys: ``delete,x`` -> ``del / x``, ``shift+up`` -> ``shift+↑``."""
    shown = []
    for key in keys.split(","):
        *modifiers, name = key.strip().split("+")
        shown.append("+".join([*modifiers, format_key(name)]))
    return " / ".join(shown)


def binding_rows(bindings: Iterable[BindingType]) -> Rows:
    """(keys, what they do) per binding: the long help of :data:`ACTION_HELP`, else the binding's
    tooltip, else its footer description."""
    return [
        (key_text(b.key), ACTION_HELP.get(b.action) or b.tooltip or b.description or b.action)
        for b in bindings
        if isinstance(b, Binding)
    ]


def widget_sections(tab_label: str, root: Widget) -> list[tuple[str, Rows]]:
    """The keys bound by the app's own widgets under ``root``, one section per widget class (in
    the order they are met), titled ``tab_label`` or ``tab_label · HELP_TITLE``."""
    sections: list[tuple[str, Rows]] = []
    seen: set[type] = set()
    for widget in root.walk_children(Widget):
        cls = type(widget)
        if cls in seen or not cls.__module__.startswith(f"{__package__}."):  # the app's own widgets
            continue
        seen.add(cls)
        own = cls.__dict__.get("BINDINGS")
        if own:
            title = getattr(cls, "HELP_TITLE", "")
            sections.append((f"{tab_label} · {title}" if title else tab_label, binding_rows(own)))
    return sections


class HelpScreen(ModalScreen[None]):
    """The keys, in titled sections; the list scrolls when the terminal is small."""

    BINDINGS = [
        Binding("escape,q,f1,question_mark", "dismiss", "Close"),
        # the list takes no focus (Textual focuses a scroll container only once it can scroll)
        Binding("up,k", "scroll('up')", "Up", show=False),
        Binding("down,j", "scroll('down')", "Down", show=False),
        Binding("pageup", "scroll('page_up')", "Page up", show=False),
        Binding("pagedown,space", "scroll('page_down')", "Page down", show=False),
        Binding("home", "scroll('home')", "Top", show=False),
        Binding("end", "scroll('end')", "End", show=False),
    ]

    def __init__(self, sections: Sequence[tuple[str, Rows]]) -> None:
        super().__init__()
        self.sections = [*sections, ("Text fields and prompts", WIDGET_KEYS)]

    @property
    def rows(self) -> Rows:
        """Every (keys, description) shown, in order."""
        return [row for _, rows in self.sections for row in rows]

    def compose(self) -> ComposeResult:
        # a title line above each section's table; one key-column width for all, so they align
        key_width = max((cell_len(key) for key, _ in self.rows), default=0)
        parts: list[RenderableType] = []
        for title, rows in self.sections:
            table = Table.grid(padding=(0, 2))
            table.add_column(style="bold cyan", no_wrap=True, min_width=key_width)
            table.add_column()
            for key, description in rows:
                table.add_row(Text(key), Text(description))
            parts += [Text(title, style="bold underline"), table, Text("")]
        with Vertical(id="help-box", classes="modal-box"):
            yield Label("Keys — bpe-explorer (escape closes; ↑/↓ scroll)", classes="modal-title")
            with VerticalScroll(id="help-keys"):
                yield Static(Group(*parts))
                yield Static(
                    Text(
                        "Train on the corpus at the left, then step through the training: the corpus view "
                        "shows the text split into tokens after the first k steps (for BPE and WordPiece, "
                        "the token merge k created highlighted; for Unigram, by the model of step k). The "
                        "stepping keys work anywhere in Train except inside a text field.",
                        style="dim",
                    )
                )

    def action_scroll(self, where: str) -> None:
        """Scroll the keys. End stays at the end while the list is still being laid out: pressed as
        the help opens, it came before the list knew its height and stopped a page short."""
        keys = self.query_one("#help-keys", VerticalScroll)
        getattr(keys, f"scroll_{where}")(animate=False)
        self._pinned_to_end = where == "end"

    _pinned_to_end = False

    def on_mount(self) -> None:
        self.watch(self.query_one("#help-keys", VerticalScroll), "virtual_size", self._keep_the_end, init=False)

    def _keep_the_end(self) -> None:
        if self._pinned_to_end:
            self.query_one("#help-keys", VerticalScroll).scroll_end(animate=False)
