"""The Inspect tab: one text, one tokenizer, every token down to its bytes.

Typing, picking a tokenizer or a special-token mode re-encodes (debounced, in a worker thread;
a generation number drops results that arrived after newer input). The chips select a token;
its details, the streaming decoder up to it, and its merge tree update below.

The pane reads nothing from the app: the app sets :attr:`InspectorPane.state` (the trained model
and its step k) while the tab is visible, and "Inspect corpus selection" asks the app for the
selection with :class:`InspectorPane.SelectionWanted` (messages up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static

from bpe_engine.display import visible_text
from bpe_engine.errors import BpeEngineError
from bpe_engine.inspect import PartialGroup, StreamStep, TokenDetail, clean_text, partial_groups, stream_decode, token_details
from bpe_engine.merge_tree import merge_tree_for
from bpe_engine.special_text import find_special_text, special_text_note
from bpe_engine.types import DEFAULT_SPECIAL_MODE, SpecialMode

from ..compare import sources
from ..state import ExplorerState
from ..widgets.safe_text import SafeInput
from .chips import TokenChips
from .render import detail_text, stream_text, tree_text

SPECIAL_CHOICES: tuple[tuple[str, SpecialMode], ...] = (
    ("<|…|> as plain text", "text"),
    ("<|…|> as special token", "special"),
    ("<|…|> special text: refuse", "refuse"),
)
DEFAULT_TEXT = "Hello 한국어 👋🏽 <|endoftext|>"
DEBOUNCE = 0.12


@dataclass(frozen=True)
class Inspected:
    """One finished encoding, ready to draw."""

    generation: int
    spec: str
    name: str
    text: str
    notes: tuple[str, ...]
    details: tuple[TokenDetail, ...]
    groups: tuple[PartialGroup, ...]
    steps: tuple[StreamStep, ...]
    byte_level: bool
    tokenizer: Any
    error: str | None = None


class InspectorPane(Widget):
    """Text field, tokenizer picker, special-token switch, chips, and the selected token's story."""


    class SelectionWanted(Message):
        """The user asked to inspect the corpus selection (the app answers with :meth:`inspect`)."""

    class Encoded(Message):
        """A worker finished encoding (possibly stale: checked against the generation)."""

        def __init__(self, result: Inspected) -> None:
            super().__init__()
            self.result = result

    def __init__(
        self, *, id: str | None = None, text: str = DEFAULT_TEXT, spec: str = "gpt2", state: ExplorerState | None = None  # noqa: A002
    ) -> None:
        super().__init__(id=id)
        self._state = state if state is not None else ExplorerState()
        self._initial_text = text
        self._initial_spec = spec
        self._generation = 0
        self._timer: Timer | None = None
        self._result: Inspected | None = None
        self._choices = list(sources.CHOICES)

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield SafeInput(self._initial_text, placeholder="text to inspect", id="inspect-input")
        with Horizontal(classes="bar"):
            yield Select(self._choices, value=self._initial_spec, allow_blank=False, id="inspect-tokenizer")
            yield Select(SPECIAL_CHOICES, value=DEFAULT_SPECIAL_MODE, allow_blank=False, id="inspect-special")
        with Horizontal(classes="buttons"):
            yield Button("Inspect corpus selection", id="inspect-selection", compact=True)
            yield Button("Load tokenizer file…", id="inspect-load", compact=True)
        yield Static(id="inspect-status", markup=False)
        yield TokenChips(id="inspect-chips")
        with Horizontal(id="inspect-lower"):
            with VerticalScroll():
                yield Static(id="inspect-detail", markup=False)
            with VerticalScroll():
                yield Static(id="inspect-stream", markup=False)
            with VerticalScroll():
                yield Static(id="inspect-tree", markup=False)

    def on_mount(self) -> None:
        self.schedule(immediate=True)

    # -- public ----------------------------------------------------------------------------------
    @property
    def text(self) -> str:
        return self.query_one("#inspect-input", Input).value

    def inspect(self, text: str, spec: str | None = None) -> None:
        """Show ``text`` (and switch to tokenizer ``spec``); what "inspect selection" calls."""
        self.query_one("#inspect-input", Input).value = text
        if spec is not None:
            self._ensure_choice(spec)
            self.query_one("#inspect-tokenizer", Select).value = spec
        self.schedule(immediate=True)

    @property
    def result(self) -> Inspected | None:
        return self._result

    @property
    def state(self) -> ExplorerState:
        return self._state

    @state.setter
    def state(self, state: ExplorerState) -> None:
        """The app's model and step; re-encode only if the trained model is the one shown."""
        old, self._state = self._state, state
        moved = old.tokenizer is not state.tokenizer or old.step != state.step
        if moved and self.is_mounted and self._spec() == sources.OURS:
            self.schedule(immediate=True)

    # -- events ----------------------------------------------------------------------------------
    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "inspect-input":
            self.schedule()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id in ("inspect-tokenizer", "inspect-special"):
            event.stop()
            self.schedule(immediate=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "inspect-selection":
            self._inspect_corpus_selection()
        elif event.button.id == "inspect-load":
            from ..screens import PathScreen

            self.app.push_screen(PathScreen("Load a tokenizer file to inspect with"), self._loaded_path)

    def on_token_chips_selected(self, message: TokenChips.Selected) -> None:
        self._show_selected(message.index)

    def on_inspector_pane_encoded(self, message: Encoded) -> None:
        result = message.result
        if result.generation != self._generation:
            return  # a newer input is already being encoded: never let an old result win
        self._result = result
        self._show(result)

    # -- encoding --------------------------------------------------------------------------------
    def schedule(self, *, immediate: bool = False) -> None:
        """Re-encode after a short pause in typing (or at once)."""
        self._generation += 1
        if self._timer is not None:
            self._timer.stop()
        if immediate:
            self._start(self._generation)
        else:
            gen = self._generation
            self._timer = self.set_timer(DEBOUNCE, lambda: self._start(gen))

    def _start(self, generation: int) -> None:
        if generation != self._generation:
            return
        state = self._state
        self._encode_worker(generation, self.text, self._spec(), self._mode(), state.tokenizer_at)

    @work(thread=True, exclusive=True, exit_on_error=False, group="inspect")
    def _encode_worker(self, generation: int, text: str, spec: str, mode: SpecialMode, ours: Any) -> None:
        self.post_message(self.Encoded(encode_for_inspector(generation, text, spec, mode, ours)))

    # -- drawing ---------------------------------------------------------------------------------
    def _show(self, r: Inspected) -> None:
        status = Text()
        status.append(f"{sources.label_of(r.spec)}", "bold")
        if r.spec == sources.OURS and self._state.tokenizer is not None:
            status.append(f" k={self._state.step:,} of {self._state.merge_count:,} (follows the Train step)", "bold")
        status.append(f"  ·  {len(r.details):,} tokens, {len(r.text):,} characters, {len(r.text.encode()):,} bytes", "dim")
        status.append(f"  ·  special text: {self._mode()}", "dim")
        if r.groups:
            status.append(f"  ·  {len(r.groups)} character(s) split across tokens", "#fab387")
        for note in r.notes:
            status.append(f"\n{note}", "yellow")
        if r.error:
            status.append("\n")
            status.append(visible_text(r.error), "bold red")
        self.query_one("#inspect-status", Static).update(status)
        chips = self.query_one(TokenChips)
        chips.show(r.details, r.groups, r.text, byte_level=r.byte_level)
        self._show_selected(chips.selected)

    def _show_selected(self, index: int) -> None:
        r = self._result
        detail = self.query_one("#inspect-detail", Static)
        stream = self.query_one("#inspect-stream", Static)
        tree = self.query_one("#inspect-tree", Static)
        if r is None or not r.details:
            detail.update(Text("select a token to see its bytes", style="dim"))
            stream.update(stream_text((), -1))
            tree.update(Text(""))
            return
        index = max(0, min(index, len(r.details) - 1))
        d = r.details[index]
        detail.update(detail_text(d, len(r.details), r.groups, r.text, byte_level=r.byte_level))
        stream.update(stream_text(r.steps, index))
        try:
            node = merge_tree_for(r.tokenizer, d.id, special=d.special)
        except (BpeEngineError, KeyError, IndexError, ValueError):
            node = None
        tree.update(tree_text(node, r.name, byte_level=r.byte_level))

    # -- helpers ---------------------------------------------------------------------------------
    def _spec(self) -> str:
        value = self.query_one("#inspect-tokenizer", Select).value
        return value if isinstance(value, str) else "gpt2"

    def _mode(self) -> SpecialMode:
        value = self.query_one("#inspect-special", Select).value
        return value if value in ("refuse", "text", "special") else DEFAULT_SPECIAL_MODE  # type: ignore[return-value]

    def _ensure_choice(self, spec: str) -> None:
        if all(value != spec for _, value in self._choices):
            self._choices.append((Text(visible_text(spec)), spec))  # a path is never markup
            self.query_one("#inspect-tokenizer", Select).set_options(self._choices)

    def _loaded_path(self, path: str | None) -> None:
        if path:
            self._ensure_choice(path)
            self.query_one("#inspect-tokenizer", Select).value = path

    def _inspect_corpus_selection(self) -> None:
        self.post_message(self.SelectionWanted())


def encode_for_inspector(generation: int, text: str, spec: str, mode: SpecialMode, ours: Any) -> Inspected:
    """Everything the pane draws, computed off the UI thread; user errors become ``error``."""
    cleaned = clean_text(text)
    tok = sources.get(spec, ours)
    name = str(getattr(tok, "name", spec))
    byte_level = bool(getattr(tok, "byte_level", False))
    try:
        enc = tok.encode_detailed(cleaned.text, special_mode=mode)
    except BpeEngineError as exc:
        return Inspected(generation, spec, name, cleaned.text, cleaned.notes, (), (), (), byte_level, tok, str(exc))
    except Exception as exc:  # noqa: BLE001 - a loaded file's bug is shown, never crashes the app
        error = f"{name} failed: {type(exc).__name__}: {exc}"
        return Inspected(generation, spec, name, cleaned.text, cleaned.notes, (), (), (), byte_level, tok, error)
    details = tuple(token_details(enc, tok))
    groups = tuple(partial_groups(enc))
    steps = tuple(stream_decode([d.data for d in details]))
    found = find_special_text(cleaned.text, getattr(tok, "special_tokens", None) or {})
    special = special_text_note(found, mode, name, option="the <|…|> selector above:")
    notes = (*cleaned.notes, *getattr(enc, "notes", ()), *((special,) if special else ()))
    return Inspected(generation, spec, name, enc.text, notes, details, groups, steps, byte_level, tok)
