"""Inspect's tokenizer bar: which tokenizer and which special-token mode the text is encoded with.

It owns the tokenizer list (the fixed choices, the ones found on this machine, a file tried with
"Load file…", one picked from every tokenizer with ``m``); the pane hears of a change through
the selects' own ``Select.Changed`` and reads :attr:`spec` and :attr:`mode`.
"""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Select

from bpe_engine.display import visible_text
from bpe_engine.types import SpecialMode

from ..models import sources
from ..models.flow import choose_tokenizers
from ..models.picker import read_candidates
from ..widgets.special_mode import SpecialModeSelect


class PickerBar(Horizontal):
    """The tokenizer select and the special-token select."""

    class FileTried(Message):
        """A tokenizer file chosen with "Load file…" loaded (``error`` None) or was refused."""

        def __init__(self, path: str, error: str | None) -> None:
            super().__init__()
            self.path, self.error = path, error

    class Choices(Message):
        """Tokenizers usable now (present built-ins, the hub cache), read in a worker."""

        def __init__(self, specs: tuple[tuple[str, str], ...]) -> None:
            super().__init__()
            self.specs = specs

    def __init__(self, spec: str, default: str) -> None:
        super().__init__(classes="bar")
        self._initial, self._default = spec, default
        self._choices: list[tuple[str | Text, str]] = list(sources.CHOICES)
        if all(value != spec for _, value in self._choices):
            self._choices.append((visible_text(spec), spec))

    def compose(self) -> ComposeResult:
        yield Select(self._choices, value=self._initial, allow_blank=False, compact=True, id="inspect-tokenizer")
        yield SpecialModeSelect(id="inspect-special")

    def on_mount(self) -> None:
        self._choices_worker()

    @property
    def spec(self) -> str:
        value = self.query_one("#inspect-tokenizer", Select).value
        return value if isinstance(value, str) else self._default

    @property
    def mode(self) -> SpecialMode:
        return self.query_one("#inspect-special", SpecialModeSelect).mode

    def use(self, spec: str) -> None:
        """Inspect with ``spec`` (added to the list if it is not there)."""
        if all(value != spec for _, value in self._choices):
            self._choices.append((Text(visible_text(spec)), spec))  # a path is never markup
            self.query_one("#inspect-tokenizer", Select).set_options(self._choices)
        self.query_one("#inspect-tokenizer", Select).value = spec

    def choose_more(self) -> None:
        """The searchable picker of every tokenizer."""

        def chosen(specs: tuple[str, ...]) -> None:
            if specs:
                self.use(specs[0])

        choose_tokenizers(self.app, [self.spec], chosen, multiple=False, title="Tokenizer to inspect with")

    def load_file(self) -> None:
        from ..screens import PathScreen

        self.app.push_screen(PathScreen("Load a tokenizer file to inspect with"), self._loaded_path)

    def _loaded_path(self, path: str | None) -> None:
        if path:
            self._try_file(path)

    @work(thread=True, exit_on_error=False, group="inspect-file", description="loading a tokenizer file")
    def _try_file(self, path: str) -> None:
        """Load the file first: one that fails is not made the tokenizer (it replaced the one in
        use with its error, and the user had to pick that one again)."""
        loaded = sources.get(path, lambda: None)
        error = loaded.error if isinstance(loaded, sources.FailedTokenizer) else None
        self.post_message(self.FileTried(path, None if error is None else str(error)))

    def on_picker_bar_file_tried(self, message: FileTried) -> None:
        message.stop()
        if message.error is None:
            self.use(message.path)  # loaded and cached: it encodes at once
            return
        shown = visible_text(sources.label_of(self.spec))
        self.notify(f"{visible_text(message.error)} (still inspecting with {shown})", severity="error", markup=False)

    @work(thread=True, exit_on_error=False, group="inspect-choices")
    def _choices_worker(self) -> None:
        try:
            found = read_candidates()
        except Exception:  # noqa: BLE001 - the fixed choices remain
            return
        usable = tuple((c.spec, c.spec) for c in found if c.usable and c.origin in ("builtin", "hf-cache"))
        self.post_message(self.Choices(usable))

    def on_picker_bar_choices(self, message: Choices) -> None:
        message.stop()
        known = {value for _, value in self._choices}
        added = [(label, spec) for label, spec in message.specs if spec not in known]
        if added:
            self._choices += added
            select = self.query_one("#inspect-tokenizer", Select)
            current = select.value
            select.set_options(self._choices)
            select.value = current


__all__ = ["PickerBar"]
