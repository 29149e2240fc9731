"""The tokenizer picker: every tokenizer this machine has or can fetch, searchable.

One list for Compare's rows (any number: space or a click toggles a row, enter or esc closes) and
for Inspect's tokenizer (one: enter or a click picks it). The list comes from
:func:`bpe_engine.compare.candidates.candidates` over the catalogue's :func:`list_models` --
baselines, the trained model, installed references, built-ins present or fetchable, and the user's
Hugging Face cache -- read in a worker (it checks every cached file's sha256 once). Picking a
built-in that is not fetched yet returns it in :attr:`Picked.fetch`; the caller fetches it
(:class:`tui.models.fetch_screen.FetchScreen`) before using it. Files are added by path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, Label, OptionList, SelectionList, Static
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from bpe_engine.compare.candidates import Candidate, candidates, search
from bpe_engine.display import visible_text

from ..screens import TypeAhead
from ..widgets.safe_text import SafeInput

FILE_HINT = "a saved directory, tokenizer.json, vocab.json + merges.txt, vocab.txt, .tiktoken, tekken.json or a SentencePiece .model"


@dataclass(frozen=True)
class Picked:
    """What the user chose: ``specs`` in order (built-ins to fetch included, where they go), and
    ``fetch``, the built-ins among them that must be fetched first."""

    specs: tuple[str, ...]
    fetch: tuple[str, ...] = ()


def read_candidates() -> list[Candidate]:
    """Every candidate (blocking: the catalogue verifies cached files; call from a worker)."""
    from bpe_engine.catalog import list_models

    return candidates(list_models())


def prompt(c: Candidate, chosen: bool = False) -> Text:
    """One line of the list: name, what it is, and its state when it is not usable yet."""
    out = Text(no_wrap=True, overflow="ellipsis")
    out.append(f"{visible_text(c.spec):<18}", "bold")
    out.append(" ")
    out.append(visible_text(c.title), "")
    if c.fetchable:
        out.append("  ⤓ ", "bold #f9e2af")
        out.append("fetched with pip when chosen" if not chosen else "will be fetched with pip", "#f9e2af")
    elif c.state != "present":
        out.append(f"  {c.state}", "red")
    if c.origin in ("hf-cache", "file"):
        out.append(f"  ({c.origin})", "dim")
    return out


class TokenizerPicker(TypeAhead[Picked | None]):
    """Search and choose tokenizers; ``multiple`` for Compare's rows, else one for Inspect.
    What is typed right after the key that opens it (``a cl100k``, ``m gpt2``) is its search."""

    DEFAULT_CSS = """
    TokenizerPicker .picker-box { height: 90%; max-width: 110; }
    TokenizerPicker #picker-list { height: 1fr; }
    TokenizerPicker #picker-hint { height: auto; }
    TokenizerPicker .picker-buttons { height: 1; }
    TokenizerPicker Button { margin-right: 2; }
    """

    INPUT_ID = "picker-search"
    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("enter", "done", "Done", priority=True),
        Binding("down", "to_list", "List", show=False),
    ]

    class Loaded(Message):
        def __init__(self, found: list[Candidate]) -> None:
            super().__init__()
            self.found = found

    def __init__(self, chosen: Sequence[str], *, multiple: bool = True, title: str = "") -> None:
        super().__init__()
        self._multiple = multiple
        self._chosen: list[str] = list(chosen)
        self._found: list[Candidate] = []
        self._shown: list[Candidate] = []
        self._title = title or ("Rows to compare" if multiple else "Tokenizer to inspect with")

    def compose(self) -> ComposeResult:
        with Vertical(classes="modal-box picker-box"):
            yield Label(self._title, classes="modal-title")
            yield SafeInput(placeholder="search: name, kind or origin (e.g. sentencepiece, tiktoken, hf)", id="picker-search")
            if self._multiple:
                yield SelectionList[str](id="picker-list")
            else:
                yield OptionList(id="picker-list")
            yield Static(Text("looking for tokenizers…", style="dim italic"), id="picker-hint")
            with Horizontal(classes="picker-buttons"):
                yield Button("Add file…", id="picker-file", compact=True)
                yield Button("Done", id="picker-done", compact=True, variant="primary")

    def on_mount(self) -> None:
        self.query_one("#picker-search", Input).focus()
        self._read_worker()

    @work(thread=True, exit_on_error=False, group="picker")
    def _read_worker(self) -> None:
        try:
            found = read_candidates()
        except Exception:  # noqa: BLE001 - a broken cache must not break the picker: the baselines remain
            from bpe_engine.compare.candidates import BASELINES

            found = list(BASELINES)
        self.post_message(self.Loaded(found))

    def on_tokenizer_picker_loaded(self, message: Loaded) -> None:
        known = {c.spec for c in message.found}
        extra = [Candidate(s, "a tokenizer file", "file") for s in self._chosen if s not in known]
        self._found = [*message.found, *extra]
        self._refresh_list()

    # -- list ------------------------------------------------------------------------------------
    def _refresh_list(self) -> None:
        self._shown = search(self._found, self.query_one("#picker-search", Input).value)
        widget = self.query_one("#picker-list")
        if isinstance(widget, SelectionList):
            widget.clear_options()
            widget.add_options([Selection(prompt(c, c.spec in self._chosen), c.spec, c.spec in self._chosen) for c in self._shown])
        else:
            assert isinstance(widget, OptionList)
            widget.clear_options()
            widget.add_options([Option(prompt(c), id=c.spec) for c in self._shown])
        if self._shown:
            widget.highlighted = 0
        self._hint()

    def _hint(self) -> None:
        hint = Text(style="dim")
        n = len(self._shown)
        hint.append(f"{n} of {len(self._found)} shown · ")
        if self._multiple:
            hint.append(f"{len(self._chosen)} rows chosen · space or click toggles · enter or esc: done")
        else:
            hint.append("enter or click picks · esc cancels")
        fetch = [s for s in self._chosen if (found := self._candidate(s)) is not None and found.fetchable]
        if self._multiple and fetch:
            hint.append("\nto fetch with pip from your package index when you close this: ", "#f9e2af")
            hint.append(", ".join(fetch), "bold #f9e2af")
        self.query_one("#picker-hint", Static).update(hint)

    def _candidate(self, spec: str) -> Candidate | None:
        return next((c for c in self._found if c.spec == spec), None)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "picker-search" and self._found:
            self._refresh_list()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the search box takes the first match (a row toggles on; one tokenizer is picked)."""
        event.stop()
        if not self._shown:
            self._take_typed_path(event.value.strip())
            return
        first = self._shown[0]
        if not self._multiple:
            self._pick(first.spec)
            return
        if first.spec not in self._chosen:
            self._chosen.append(first.spec)
        self.query_one("#picker-search", Input).value = ""
        self._refresh_list()

    def _take_typed_path(self, typed: str) -> None:
        """A search that matches no tokenizer but names a file or directory that exists is taken as
        "Add file…" would take it (users type the path of what they saved into the one box they see)."""
        try:  # a pasted line may hold a NUL or be longer than a file name can be
            path = Path(typed).expanduser() if typed else None
            exists = path is not None and path.exists()
        except (OSError, ValueError, RuntimeError):
            path, exists = None, False
        if path is not None and exists:
            self.query_one("#picker-search", Input).value = ""
            self._add_path(str(path))
            return
        if typed:
            self.notify(f"no tokenizer matches {visible_text(typed)!r}; 'Add file…' takes a path", severity="warning")

    def on_selection_list_selection_toggled(self, event: SelectionList.SelectionToggled) -> None:
        event.stop()
        spec = str(event.selection.value)
        if spec in self._chosen:
            self._chosen.remove(spec)
        else:
            self._chosen.append(spec)
        c = self._candidate(spec)
        if c is not None:
            event.selection_list.replace_option_prompt_at_index(event.selection_index, prompt(c, spec in self._chosen))
        self._hint()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self._pick(event.option.id)

    # -- closing ---------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """enter closes a row list (space toggles); in the search box it takes the first match,
        on a button it presses it, and in Inspect's one-of list it picks."""
        if action == "done":
            return self._multiple and isinstance(self.focused, SelectionList)
        return True

    def action_done(self) -> None:
        self.action_close()

    def action_to_list(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one("#picker-list").focus()

    def action_close(self) -> None:
        if not self._multiple:
            self.dismiss(None)
            return
        fetch = tuple(s for s in self._chosen if (c := self._candidate(s)) is not None and c.fetchable)
        self.dismiss(Picked(tuple(self._chosen), fetch))

    def _pick(self, spec: str) -> None:
        c = self._candidate(spec)
        self.dismiss(Picked((spec,), (spec,) if c is not None and c.fetchable else ()))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "picker-done":
            self.action_close()
        elif event.button.id == "picker-file":
            from ..screens import PathScreen

            self.app.push_screen(PathScreen("Add a tokenizer file", hint=FILE_HINT), self._add_path)

    def _add_path(self, path: str | None) -> None:
        if not path:
            return
        if self._candidate(path) is None:
            self._found.append(Candidate(path, "a tokenizer file", "file"))
        if not self._multiple:
            self._pick(path)
            return
        if path not in self._chosen:
            self._chosen.append(path)
        self._refresh_list()
