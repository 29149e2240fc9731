"""The Inspect tab: one text, one tokenizer, every token down to its bytes.

Typing, picking a tokenizer or a special-token mode re-encodes (debounced, in a worker thread;
a generation number drops results that arrived after newer input; a tokenizer still to load says
"loading …" at once). The text is shown coloured by token (ids or bytes on demand) above the
chips; pointing at either lights the same token in both. The selected token's details, the
streaming decoder up to it, and "why this token" (its merge tree; for Unigram the best
segmentation against the next best; for HF pipelines the stages) update below -- the "why" in a
worker, since a Unigram n-best or an HF merge index may take a moment.

The pane reads nothing from the app: the app sets :attr:`InspectorPane.state` (the trained model
and its step k) while the tab is visible, and "Corpus selection" asks the app for the
selection with :class:`InspectorPane.SelectionWanted` (messages up).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static
from textual.worker import get_current_worker

from bpe_engine.display import visible_text
from bpe_engine.inspect.why import TokenWhy, explain, with_samples
from bpe_engine.types import SpecialMode

from ..compare import sources
from ..state import ExplorerState
from ..widgets.clipboard import copy_ids
from ..widgets.safe_text import SafeInput
from ..widgets.token_text import TokenText
from .chips import TokenChips
from .encoding import Inspected, encode_for_inspector
from .picker_bar import PickerBar
from .render import detail_text, status_text, stream_text
from .why_view import why_text

DEFAULT_TEXT = "Hello 한국어 👋🏽 <|endoftext|>"
DEFAULT_SPEC = "gpt2"
"""The tokenizer Inspect opens with (the app loads it off the UI thread before the first f3)."""
DEBOUNCE = 0.12
REGULARIZATION = ((0.1, 0.1), (0.2, 0.2), (0.5, 0.5), (0.05, 1.0))
"""(BPE-dropout p, Unigram alpha) pairs ``r`` cycles through: p = 0.1 as Provilkov et al. train,
alpha = 0.1 as SentencePiece's own example; smaller alpha flattens the distribution."""
SAMPLES = 1000

__all__ = ["DEFAULT_SPEC", "DEFAULT_TEXT", "InspectorPane", "Inspected", "encode_for_inspector"]


class InspectorPane(Widget):
    """Text field, tokenizer picker, special-token switch, coloured text, chips, the token's story."""

    BINDINGS = [
        Binding("c", "copy_ids", "Copy ids", tooltip="copy the token ids"),
        Binding("m", "more", "More tokenizers", tooltip="choose the tokenizer: a searchable picker of every one"),
        Binding("v", "next_lower", "Next pane", tooltip="small terminal: details, streaming decode or why below the chips"),
        Binding("escape", "leave_text", "Leave text", show=False, tooltip="leave the text box for the chips, so these keys act"),
        # the coloured text's own keys, wherever the keyboard is outside the text box (after esc
        # it is on the chips: these did nothing there)
        Binding("t", "view_mode('text')", "Text", show=False, tooltip="show the tokens as text"),
        Binding("i", "view_mode('ids')", "Ids", show=False, tooltip="show the token ids"),
        Binding("b", "view_mode('bytes')", "Bytes", show=False, tooltip="show the bytes of each token"),
        Binding("r", "regularize", "Dropout/α", tooltip="another BPE-dropout p / Unigram sampling alpha for the word's cuts"),
    ]
    LOWER = ("show-detail", "show-stream", "show-why")
    """The panes below the chips, one at a time on a small terminal (``v`` cycles them)."""

    class SelectionWanted(Message):
        """The user asked to inspect the corpus selection (the app answers with :meth:`inspect`)."""

    class Encoded(Message):
        """A worker finished encoding (possibly stale: checked against the generation)."""

        def __init__(self, result: Inspected) -> None:
            super().__init__()
            self.result = result

    class Explained(Message):
        """A worker answered "why" for token ``index`` of run ``generation``."""

        def __init__(self, generation: int, index: int, why: TokenWhy) -> None:
            super().__init__()
            self.generation, self.index, self.why = generation, index, why

    def __init__(
        self, *, id: str | None = None, text: str = DEFAULT_TEXT, spec: str = DEFAULT_SPEC, state: ExplorerState | None = None  # noqa: A002
    ) -> None:
        super().__init__(id=id)
        self._state = state if state is not None else ExplorerState()
        self._initial_text = text
        self._initial_spec = spec
        self._generation = 0
        self._timer: Timer | None = None
        self._result: Inspected | None = None
        self._why_key: tuple[int, int] | None = None
        self._regularization = 0  # index into REGULARIZATION

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        # select_on_focus off: tabbing in selected all of it, and the next key replaced the text
        yield SafeInput(self._initial_text, placeholder="text to inspect", id="inspect-input", keep_lines=True, select_on_focus=False)
        yield PickerBar(self._initial_spec, DEFAULT_SPEC)
        with Horizontal(classes="buttons"):
            # short labels, so the four fit in 80 columns ("Copy ids (c)" was cut to "Cop")
            yield Button("Tokenizers… (m)", id="inspect-more", compact=True, tooltip="every tokenizer, searchable")
            yield Button(
                "Corpus selection", id="inspect-selection", compact=True,
                tooltip="inspect the text selected in the corpus on the Train tab",
            )
            yield Button("Load file…", id="inspect-load", compact=True, tooltip="inspect with a tokenizer file")
            yield Button("Copy ids (c)", id="inspect-copy", compact=True, tooltip="copy the token ids")
        yield Static(id="inspect-status", markup=False)
        yield TokenText(id="inspect-text")
        yield TokenChips(id="inspect-chips")
        with Horizontal(id="inspect-lower", classes=self.LOWER[0]):
            with VerticalScroll(id="lower-detail"):
                yield Static(id="inspect-detail", markup=False)
            with VerticalScroll(id="lower-stream"):
                yield Static(id="inspect-stream", markup=False)
            with VerticalScroll(id="lower-why"):
                yield Static(id="inspect-tree", markup=False)

    def on_mount(self) -> None:
        self.schedule(immediate=True)

    # -- public ----------------------------------------------------------------------------------
    @property
    def text(self) -> str:
        return self.query_one("#inspect-input", Input).value

    def inspect(self, text: str, spec: str | None = None) -> None:
        """Show ``text`` (and switch to tokenizer ``spec``); what "inspect selection" calls."""
        self.query_one("#inspect-input", SafeInput).hold(text)
        if spec is not None:
            self.use_tokenizer(spec)
        self.schedule(immediate=True)

    def use_tokenizer(self, spec: str) -> None:
        """Inspect with ``spec`` (added to the picker if it is not there)."""
        self.query_one(PickerBar).use(spec)

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
        moved = (old.tokenizer, old.step_models, old.step, old.training) != (state.tokenizer, state.step_models, state.step, state.training)
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
            self.post_message(self.SelectionWanted())
        elif event.button.id == "inspect-load":
            self.query_one(PickerBar).load_file()
        elif event.button.id == "inspect-more":
            self.action_more()
        elif event.button.id == "inspect-copy":
            self.action_copy_ids()

    def on_token_chips_selected(self, message: TokenChips.Selected) -> None:
        self._show_selected(message.index)

    def on_token_chips_pointed(self, message: TokenChips.Pointed) -> None:
        message.stop()
        self._light(message.index if message.index is not None else self.query_one(TokenChips).selected)

    def on_token_text_pointed(self, message: TokenText.Pointed) -> None:
        message.stop()
        chips = self.query_one(TokenChips)
        if message.clicked and message.token is not None:
            chips.selected = message.token
            return
        chips.light(message.token)
        self._light(message.token if message.token is not None else chips.selected)

    def on_token_text_nav(self, message: TokenText.Nav) -> None:
        message.stop()
        if message.dtoken:
            self.query_one(TokenChips).action_move(message.dtoken)

    def on_inspector_pane_encoded(self, message: Encoded) -> None:
        result = message.result
        if result.generation != self._generation:
            return  # a newer input is already being encoded: never let an old result win
        self._result = result
        self._show(result)

    def on_inspector_pane_explained(self, message: Explained) -> None:
        r = self._result
        if r is None or (message.generation, message.index) != self._why_key:
            return  # the selection moved on
        self.query_one("#inspect-tree", Static).update(why_text(message.why, r.name, byte_level=r.byte_level))

    # -- actions ---------------------------------------------------------------------------------
    def action_copy_ids(self) -> None:
        r = self._result
        if r is None:
            return
        copy_ids(self.app, r.encoding, sources.label_of(r.spec))

    def action_leave_text(self) -> None:
        """esc in the text box leaves it for the token chips (←/→ step through the tokens), so
        the pane's keys (c, m, v) act instead of being typed -- as in Compare."""
        if self.query_one("#inspect-input").has_focus:
            self.query_one(TokenChips).focus()

    def action_view_mode(self, mode: str) -> None:
        """The coloured text's ids / bytes / text, from anywhere in the pane but the text box."""
        self.query_one(TokenText).action_mode(mode)  # type: ignore[arg-type]

    def action_regularize(self) -> None:
        """The next dropout p / alpha: the selected token's word is sampled again."""
        self._regularization = (self._regularization + 1) % len(REGULARIZATION)
        self._show_selected(self.query_one(TokenChips).selected)

    def action_next_lower(self) -> None:
        """Small terminal: show the next of details / streaming decode / why below the chips."""
        lower = self.query_one("#inspect-lower")
        current = next((i for i, c in enumerate(self.LOWER) if lower.has_class(c)), 0)
        lower.remove_class(*self.LOWER)
        lower.add_class(self.LOWER[(current + 1) % len(self.LOWER)])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``v`` only where the panes take turns: on a small terminal (the screen says so)."""
        if action == "next_lower":
            return self.screen.has_class("narrow")
        return True

    def action_more(self) -> None:
        self.query_one(PickerBar).choose_more()

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
        spec = self._spec()
        if not sources.is_loaded(spec):
            loading = Text(f"loading {visible_text(sources.label_of(spec))}… (off the UI thread)", style="bold italic #f9e2af")
            self.query_one("#inspect-status", Static).update(loading)
        self._encode_worker(generation, self.text, spec, self._mode(), self._state.ours)

    @work(thread=True, exclusive=True, exit_on_error=False, group="inspect", description="encoding the text")
    def _encode_worker(self, generation: int, text: str, spec: str, mode: SpecialMode, ours: Any) -> None:
        self.post_message(self.Encoded(encode_for_inspector(generation, text, spec, mode, ours)))

    @work(thread=True, exclusive=True, exit_on_error=False, group="inspect-why", description="why this token")
    def _why_worker(self, generation: int, index: int, tokenizer: Any, encoding: Any, story_of: Any) -> None:
        """The token's merge tree (milliseconds) is posted first, then again with the word's sampled
        cuts: drawing them needs the tokenizer's rank table once (~0.5 s CPU for gpt2), and with the
        UI thread restyling a tab that first "why" stood at "…" for seconds."""
        dropout, alpha = REGULARIZATION[self._regularization]
        worker = get_current_worker()
        try:
            tree = explain(tokenizer, encoding, index, story_of=story_of)
            self.post_message(self.Explained(generation, index, tree))
            if worker.is_cancelled:
                return
            why = with_samples(tree, tokenizer, encoding, index, samples=SAMPLES, dropout=dropout, alpha=alpha)
        except Exception as exc:  # noqa: BLE001 - a loaded file's bug is shown, never crashes the app
            why = TokenWhy(note=f"could not explain this token: {type(exc).__name__}: {exc}")
        if not worker.is_cancelled:
            self.post_message(self.Explained(generation, index, why))

    # -- drawing ---------------------------------------------------------------------------------
    def _show(self, r: Inspected) -> None:
        status = status_text(r, self._state, self._mode())
        self.query_one("#inspect-status", Static).update(status)
        self.query_one(TokenText).show(r.encoding, r.alignment, empty="(no tokens)")
        chips = self.query_one(TokenChips)
        chips.show(r.details, r.groups, r.text, byte_level=r.byte_level)
        self._show_selected(chips.selected)

    def _light(self, index: int | None) -> None:
        """Light token ``index``'s characters in the coloured text."""
        r = self._result
        view = self.query_one(TokenText)
        if r is None or r.alignment is None or index is None or not 0 <= index < len(r.details):
            view.light(None)
            return
        view.light((r.alignment.token_starts[index], r.alignment.token_ends[index]), index)

    def _show_selected(self, index: int) -> None:
        r = self._result
        detail = self.query_one("#inspect-detail", Static)
        stream = self.query_one("#inspect-stream", Static)
        tree = self.query_one("#inspect-tree", Static)
        if r is None or not r.details:
            detail.update(Text("select a token to see its bytes", style="dim"))
            stream.update(stream_text((), -1))
            tree.update(Text(""))
            self._light(None)
            return
        index = max(0, min(index, len(r.details) - 1))
        d = r.details[index]
        detail.update(detail_text(d, len(r.details), r.groups, r.text, byte_level=r.byte_level))
        stream.update(stream_text(r.steps, index))
        self._light(index)
        if r.encoding is None:
            tree.update(Text(""))
            return
        self._why_key = (r.generation, index)
        tree.update(Text("why this token\n…", style="dim"))
        models = self._state.step_models if r.spec == sources.OURS else None
        self._why_worker(r.generation, index, r.tokenizer, r.encoding, models.story if models is not None else None)

    # -- helpers ---------------------------------------------------------------------------------
    def _spec(self) -> str:
        return self.query_one(PickerBar).spec

    def _mode(self) -> SpecialMode:
        return self.query_one(PickerBar).mode
