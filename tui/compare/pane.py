"""The Compare tab: one text, many tokenizers, aligned on one character axis as you type.

Typing restarts a short debounce; then the text is encoded by every row -- on the UI thread when
it is small and every tokenizer is loaded (instant feedback), in a worker thread otherwise. Each
run carries a generation number and only the newest run may draw, so a slow stale result never
overwrites a newer one. The slider picks how many merges "ours" uses (k); the chart shows the
trained model's compression curve with the references as horizontal lines.

The pane reads nothing from the app: the app sets :attr:`ComparePane.state` (model, merges,
step k) while the tab is visible. k follows the Train step until the user moves the slider;
the label says which ("follows Train" or "fixed"), and ``f`` follows again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, DataTable, Select, Static

from bpe_engine.compare import Comparison, compare, wrap_axis
from bpe_engine.compare.layout import all_cuts
from bpe_engine.compare.segments import SegmentCache
from bpe_engine.display import visible_text
from bpe_engine.types import DEFAULT_SPECIAL_MODE, SpecialMode

from ..state import ExplorerState
from ..widgets.safe_text import SafeTextArea
from . import sources
from .chart import CurveChart
from .aligned import AlignedRows
from .slider import MergeSlider

SPECIAL_CHOICES: tuple[tuple[str, SpecialMode], ...] = (
    ("<|…|> as plain text", "text"),
    ("<|…|> as special token", "special"),
    ("<|…|> special text: refuse", "refuse"),
)
DEFAULT_TEXT = "The tokenizer doesn't see words: 한국어 텍스트는 바이트로 쪼개진다. 👩‍👩‍👧 naïve café"
DEBOUNCE = 0.01  # lets one key event finish first; bursts coalesce because runs are single-flight
SYNC_LIMIT = 2000  # characters: below this (and with every tokenizer loaded) encode on the UI thread
COLUMNS = ("row", "tokens", "chars/tok", "bytes/tok", "tok/word", "partial", "UNK")


@dataclass(frozen=True)
class Compared:
    """One finished comparison with its line wrapping (blocks are laid out when drawn)."""

    generation: int
    labels: tuple[str, ...]
    comparison: Comparison
    ranges: tuple[tuple[int, int], ...]
    cuts: frozenset[int]
    width: int


class ComparePane(Widget):
    """Rows of tokenizers on one text; add/remove/reorder rows, slide k, read the statistics."""

    BINDINGS = [
        Binding("delete,x", "remove_row", "Remove row"),
        Binding("shift+up,K", "move_row(-1)", "Row up"),
        Binding("shift+down,J", "move_row(1)", "Row down"),
        Binding("left_square_bracket", "step_k(-1)", "k−1"),
        Binding("right_square_bracket", "step_k(1)", "k+1"),
        Binding("f", "follow", "k follows Train"),
    ]

    class Compared(Message):
        """A comparison finished (checked against the generation before drawing)."""

        def __init__(self, result: Compared | None, generation: int) -> None:
            super().__init__()
            self.result = result
            self.generation = generation

    def __init__(
        self,
        *,
        id: str | None = None,  # noqa: A002
        text: str = DEFAULT_TEXT,
        rows: tuple[str, ...] = sources.DEFAULT_ROWS,
        state: ExplorerState | None = None,
    ) -> None:
        super().__init__(id=id)
        self._state = state if state is not None else ExplorerState()
        self._initial_text = text
        self.rows: list[str] = list(rows)
        self._generation = 0
        self._drawn = 0
        self._timer: Timer | None = None
        self._result: Compared | None = None
        self._follow_app = True  # k follows the app's step until the user moves the slider
        self._encoding = False  # a worker is encoding
        self._input_changed = False  # input changed while it was
        self._segments = SegmentCache()  # line encodings: typing re-encodes only the edited line

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield SafeTextArea(self._initial_text, id="compare-text", soft_wrap=True, tab_behavior="focus")
        with Horizontal(classes="bar"):
            yield Select(SPECIAL_CHOICES, value=DEFAULT_SPECIAL_MODE, allow_blank=False, id="compare-special")
            yield Select(list(sources.CHOICES), prompt="add a row…", id="compare-add")
            yield Button("Add file…", id="compare-add-file")
        with Horizontal(classes="k-bar"):
            yield Static("k = 0", id="compare-k-label", markup=False)
            yield MergeSlider(id="compare-k")
        with Horizontal(id="compare-top"):
            yield DataTable(id="compare-rows", cursor_type="row", zebra_stripes=True)
            yield CurveChart()
        yield Static(id="compare-status", markup=False)
        yield AlignedRows(id="compare-aligned")

    def on_mount(self) -> None:
        table = self.query_one("#compare-rows", DataTable)
        table.add_columns(*COLUMNS)
        self._sync_slider()
        self.schedule(immediate=True)
        self.query_one(CurveChart).redraw(self._state, self.k)

    # -- public ----------------------------------------------------------------------------------
    @property
    def text(self) -> str:
        return self.query_one("#compare-text", SafeTextArea).text

    @property
    def state(self) -> ExplorerState:
        return self._state

    @state.setter
    def state(self, state: ExplorerState) -> None:
        """The app's model and step: the slider follows the step (unless the user slid it)."""
        old, self._state = self._state, state
        if not self.is_mounted:
            return
        if old.tokenizer is not state.tokenizer or old.step != state.step or old.merges is not state.merges:
            self._sync_slider()
            self.query_one(CurveChart).redraw(state, self.k)

    @property
    def k(self) -> int:
        return self.query_one(MergeSlider).value

    @property
    def result(self) -> Compared | None:
        return self._result

    def set_k(self, k: int) -> None:
        """Use the first ``k`` merges of the trained model in the "ours" row."""
        self.query_one(MergeSlider).value = k

    def add_row(self, spec: str) -> None:
        self.rows.append(spec)
        self.schedule(immediate=True)

    # -- events ----------------------------------------------------------------------------------
    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if event.text_area.id == "compare-text":
            self.schedule()

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.select.id == "compare-special":
            self.schedule(immediate=True)
        elif event.select.id == "compare-add" and isinstance(event.value, str):
            self.add_row(event.value)
            event.select.clear()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "compare-add-file":
            from ..screens import PathScreen

            hint = "a saved directory, tokenizer.json, vocab.json + merges.txt, vocab.txt or .tiktoken"
            self.app.push_screen(PathScreen("Add a tokenizer file as a row", hint=hint), self._add_path)

    def on_merge_slider_changed(self, message: MergeSlider.Changed) -> None:
        message.stop()
        self._follow_app = False  # set_range() moves are silent: this was the user
        self.query_one("#compare-k-label", Static).update(self._k_label())
        if OURS_IN(self.rows):
            self.schedule(immediate=True)
        self.query_one(CurveChart).redraw(self._state, self.k)

    def on_resize(self) -> None:
        self.schedule()  # the aligned rows wrap to the new width

    # -- actions ---------------------------------------------------------------------------------
    def action_remove_row(self) -> None:
        i = self._cursor_row()
        if 0 <= i < len(self.rows):
            del self.rows[i]
            self.schedule(immediate=True)

    def action_move_row(self, delta: int) -> None:
        i = self._cursor_row()
        j = i + delta
        if 0 <= i < len(self.rows) and 0 <= j < len(self.rows):
            self.rows[i], self.rows[j] = self.rows[j], self.rows[i]
            self._pending_cursor = j
            self.schedule(immediate=True)

    def action_step_k(self, delta: int) -> None:
        self.set_k(self.k + delta)

    def action_follow(self) -> None:
        """k follows the Train step again."""
        self._follow_app = True
        self._sync_slider()
        self.query_one(CurveChart).redraw(self._state, self.k)

    # -- encoding --------------------------------------------------------------------------------
    def schedule(self, *, immediate: bool = False) -> None:
        """Re-run the comparison after a pause in typing (or at once)."""
        self._generation += 1
        if self._timer is not None:
            self._timer.stop()
        gen = self._generation
        if immediate:
            self._start(gen)
        else:
            self._timer = self.set_timer(DEBOUNCE, lambda: self._start(gen))

    def _start(self, generation: int) -> None:
        if generation != self._generation:
            return
        if self._encoding:
            self._input_changed = True  # one run at a time; the newest input runs as soon as it ends
            return
        text, specs, mode, k = self.text, tuple(self.rows), self._mode(), self.k
        width = max(self.query_one(AlignedRows).size.width or self.app.size.width, 40) - 4  # border + scrollbar
        state = self._state
        ours = lambda: state.tokenizer_at(k)  # noqa: E731 - a frozen state, safe in a worker
        if len(text) <= SYNC_LIMIT and all(sources.is_loaded(s) for s in specs):
            self._accept(run_comparison(generation, text, specs, mode, ours, k, width, self._segments))
        else:
            self._encoding = True
            self.query_one("#compare-status", Static).update(Text("encoding…", style="dim italic"))
            self._compare_worker(generation, text, specs, mode, ours, k, width)

    @work(thread=True, exit_on_error=False, group="compare")
    def _compare_worker(self, generation: int, text: str, specs: tuple[str, ...], mode: SpecialMode, ours: Any, k: int, width: int) -> None:
        try:
            result = run_comparison(generation, text, specs, mode, ours, k, width, self._segments)
        except Exception:  # noqa: BLE001 - rows catch their own errors; this keeps the pane alive
            result = None
        self.post_message(self.Compared(result, generation))

    def on_compare_pane_compared(self, message: Compared) -> None:
        self._encoding = False
        if message.result is not None:
            self._accept(message.result)
        if self._input_changed:
            self._input_changed = False
            self._start(self._generation)

    def _accept(self, result: Compared) -> None:
        """Draw ``result`` unless something newer was drawn already (stale never wins)."""
        if result.generation < self._drawn:
            return
        self._drawn = result.generation
        self._draw(result)

    # -- drawing ---------------------------------------------------------------------------------
    def _draw(self, r: Compared) -> None:
        self._result = r
        table = self.query_one("#compare-rows", DataTable)
        cursor = getattr(self, "_pending_cursor", None)
        if cursor is None:
            cursor = table.cursor_row
        self._pending_cursor = None
        table.clear()
        for label, row in zip(r.labels, r.comparison.rows, strict=True):
            name = Text(visible_text(label), style="bold")
            s = row.stats
            if s is None:
                table.add_row(name, Text("error", style="red"), "", "", "", "", "")
                continue
            table.add_row(
                name,
                f"{s.tokens:,}",
                _num(s.chars_per_token),
                _num(s.bytes_per_token),
                _num(s.tokens_per_word),
                _pct(s.partial_share),
                _pct(s.unk_rate) if s.unk_tokens is not None else "–",
            )
        if r.labels:
            table.move_cursor(row=max(0, min(cursor, len(r.labels) - 1)))
        status = Text()
        status.append(f"{len(r.comparison.text):,} characters · {len(r.comparison.disagreements):,} disputed boundaries", "dim")
        status.append(f" · special text: {r.comparison.special_mode}", "dim")
        status.append("   keys: x remove row · shift+↑/↓ reorder · [ ] step k", "dim")
        for note in r.comparison.notes:
            status.append(f"\n{note}", "yellow")
        for label, row in zip(r.labels, r.comparison.rows, strict=True):
            if row.error:
                status.append(f"\n{visible_text(label)}: ", "bold red")
                status.append(visible_text(row.error), "red")
        self.query_one("#compare-status", Static).update(status)
        label_width = max((len(label) for label in r.labels), default=0) + 1
        self.query_one(AlignedRows).show(r.comparison, r.ranges, r.cuts, r.labels, r.width - label_width)

    # -- helpers ---------------------------------------------------------------------------------
    def _mode(self) -> SpecialMode:
        value = self.query_one("#compare-special", Select).value
        return value if value in ("refuse", "text", "special") else "text"  # type: ignore[return-value]

    def _cursor_row(self) -> int:
        return self.query_one("#compare-rows", DataTable).cursor_row

    def _k_label(self) -> Text:
        total = self._state.merge_count
        if not total:
            return Text("k (no trained model)", style="bold")
        how = "follows Train step" if self._follow_app else "fixed: f follows Train"
        return Text.assemble((f"k = {self.k:,} / {total:,}", "bold"), (f" ({how})", "dim"))

    def _sync_slider(self) -> None:
        """Fit the slider to the app's model; k follows the Train step until the user slides."""
        slider = self.query_one(MergeSlider)
        total = self._state.merge_count
        if self._follow_app:
            slider.set_range(total, self._state.step)
        else:
            slider.set_range(total)
        self.query_one("#compare-k-label", Static).update(self._k_label())
        if OURS_IN(self.rows):
            self.schedule(immediate=True)

    def _add_path(self, path: str | None) -> None:
        if path:
            self.add_row(path)


def OURS_IN(rows: list[str]) -> bool:  # noqa: N802 - reads like the constant it tests
    return sources.OURS in rows


def run_comparison(
    generation: int,
    text: str,
    specs: tuple[str, ...],
    mode: SpecialMode,
    ours: Any,
    k: int,
    width: int,
    cache: SegmentCache | None = None,
) -> Compared:
    """Load (cached), encode, align and wrap every row: everything the pane draws. With a
    ``cache``, only lines not seen before are encoded (typing touches one line)."""
    tokenizers = [sources.get(spec, ours) for spec in specs]
    result = compare(text, tokenizers, special_mode=mode, cache=cache)
    labels = tuple(f"ours k={k}" if s == sources.OURS else sources.row_label(s) for s in specs)
    label_width = max((len(label) for label in labels), default=0) + 1
    cuts = all_cuts(result)
    ranges = wrap_axis(result.text, cuts, max(width - label_width, 20))
    return Compared(generation, labels, result, tuple(ranges), cuts, width)


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"
