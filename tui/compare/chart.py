"""The compression curve: tokens per character of the corpus after k merges (textual-plot).

The trained model's curve comes from the training log (``MergeStep.occurrences``, no
re-encoding); the references are horizontal lines at their tokens per character on the same
corpus, encoded once per corpus in a worker thread. A vertical line marks the slider's k.

Under the plot, the premium of the corpus's languages against English per merge step
(:mod:`.premium_line`): a model trained on English + Korean shows Korean's falling as merges are added.

A second line is the corpus's Rényi efficiency (α 2.5, ``bpe-explorer metrics``'s figure) after k
merges: :func:`~bpe_engine.compare.curve.efficiency_curve` follows the type counts through the same
log, in a worker (a pass over the types per point), once per run and length of the log. Both are
numbers from 0 to about 1, so they share the axis; the efficiency line is drawn in blocks, not
braille dots, so it differs from the tokens line by more than colour.

The plot widget is made when the curve is first drawn: textual-plot imports numpy (~75 ms of the
~170 ms of imports the first f3 or f4 waited for, before any of those panes could show), and most
sessions never open the Curve view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from bpe_engine.compare import EfficiencyPoint, ReferenceLevel, compression_curve, efficiency_curve, reference_level
from bpe_engine.errors import BpeEngineError
from bpe_engine.training.steps import MergeStep

from ..models import sources
from ..state import ExplorerState
from .premium_line import PremiumLine

if TYPE_CHECKING:
    from textual_plot import PlotWidget

REFERENCES = ("gpt2", "cl100k_base", "o200k_base")
COLOURS = {"ours": "#89b4fa", "renyi": "#94e2d5", "gpt2": "#a6e3a1", "cl100k_base": "#f9e2af", "o200k_base": "#f5c2e7"}
RENYI_LABEL = "Rényi eff."
RENYI_MARK = "▚"
"""How the key names the efficiency line: the mark of a line drawn in quadrant blocks."""
MARKERS = {"gpt2": "+", "cl100k_base": "x", "o200k_base": "o"}
"""Reference lines are drawn as marks, one shape each, so they differ by more than colour."""
MAX_POINTS = 200
REFERENCE_MARKS = 24
COMPACT_BELOW = 16
"""Rows: a shorter chart drops its axis titles (the title line names both axes) and the blank
rows around them, so that the plot keeps rows for its lines: at 80x24 it had two."""


class CurveChart(Widget):
    """A titled plot; :meth:`redraw` draws from the app's state (merges, corpus) at ``k``."""

    DEFAULT_CSS = """
    CurveChart { layout: vertical; border: round $primary 30%; }
    CurveChart #curve-title { height: 1; }
    CurveChart PlotWidget { height: 1fr; }
    """

    class Levels(Message):
        def __init__(self, key: tuple[int, int], levels: tuple[ReferenceLevel, ...]) -> None:
            super().__init__()
            self.key = key
            self.levels = levels

    class Efficiency(Message):
        """The Rényi efficiency per merge step of the log ``key`` names (see :func:`_renyi_key`)."""

        def __init__(self, key: RenyiKey, points: tuple[EfficiencyPoint, ...]) -> None:
            super().__init__()
            self.key = key
            self.points = points

    def __init__(self) -> None:
        super().__init__(id="compare-curve")
        self._levels: dict[tuple[int, int], tuple[ReferenceLevel, ...]] = {}
        self._asked: set[tuple[int, int]] = set()
        self._state = ExplorerState()
        self._k = 0
        self._making_plot = False
        self._renyi: tuple[RenyiKey, tuple[EfficiencyPoint, ...]] | None = None  # the newest line computed
        self._renyi_asked: RenyiKey | None = None

    def compose(self) -> ComposeResult:
        yield Static("tokens/char vs merges", id="curve-title", markup=False)
        yield PremiumLine()

    def _plot(self) -> PlotWidget | None:
        """The plot, or None while it is being made (it is drawn once it is up)."""
        plot = self._plot_if_made()
        if plot is not None:
            return plot
        if not self._making_plot:
            from textual_plot import PlotWidget

            self._making_plot = True
            self.call_later(self._make_plot, PlotWidget())
        return None

    async def _make_plot(self, plot: PlotWidget) -> None:
        await self.mount(plot, before=self.query_one(PremiumLine))
        self.redraw(self._state, self._k)

    def on_resize(self) -> None:
        plot = self._plot_if_made()
        if plot is not None:
            self._fit_axes(plot)  # the plot redraws itself at its new size; only its margins follow the height

    def _plot_if_made(self) -> PlotWidget | None:
        from textual_plot import PlotWidget

        plots = self.query(PlotWidget)
        return plots.first() if plots else None

    def _fit_axes(self, plot: PlotWidget) -> None:
        """Axis titles and the blank rows around them only where the chart has rows to spare."""
        compact = self.size.height < COMPACT_BELOW
        margins = (0, 1) if compact else (2, 3)
        plot.set_xlabel("" if compact else "merges")
        plot.set_ylabel("" if compact else "tokens/char")  # the key names the efficiency line: a longer label was cut
        if (plot.margin_top, plot.margin_bottom) != margins:
            plot.margin_top, plot.margin_bottom = margins
            plot.refresh(layout=True)  # the margins' canvases take their new size before drawing

    def redraw(self, state: ExplorerState, k: int) -> None:
        """Draw the curve of ``state``'s merges with a marker at ``k``."""
        self._state, self._k = state, k
        self.query_one(PremiumLine).follow(state, k)
        plot = self._plot()
        if plot is None:
            return
        from textual_plot import HiResMode

        plot.clear()
        corpus = state.corpus
        key = (len(corpus), hash(corpus))
        xmax = 1
        has_curve = bool(state.merges) and bool(corpus) and state.initial_tokens > 0
        renyi: list[tuple[int, float]] = []
        if has_curve:
            steps = [s for s in state.merges if isinstance(s, MergeStep)]
            points = compression_curve(
                steps,
                initial_tokens=state.initial_tokens,
                corpus_chars=len(corpus),
                max_points=MAX_POINTS,
            )
            xmax = max(points[-1].merges, 1)
            plot.plot(
                [p.merges for p in points], [p.tokens_per_char for p in points],
                line_style=COLOURS["ours"], hires_mode=HiResMode.BRAILLE, label="ours",
            )
            renyi = [(p.merges, p.renyi_efficiency) for p in self._renyi_points(state, steps) if p.renyi_efficiency is not None]
            if renyi:
                plot.plot(
                    [k for k, _ in renyi], [value for _, value in renyi],
                    line_style=COLOURS["renyi"], hires_mode=HiResMode.QUADRANT, label=RENYI_LABEL,
                )
            title = "tokens/char vs merges:"
        else:
            title = "train a model (ctrl+t) to draw its curve"
        levels = self._levels.get(key)
        if levels is None and corpus and key not in self._asked:
            self._asked.add(key)
            self._levels_worker(key, corpus)
        for level in levels or ():
            colour = COLOURS.get(level.name, "white")
            marker = MARKERS.get(level.name, "*")
            xs = [xmax * i / (REFERENCE_MARKS - 1) for i in range(REFERENCE_MARKS)]
            plot.scatter(xs, [level.tokens_per_char] * len(xs), marker=marker, marker_style=colour, label=f"{marker} {level.name}")
        if has_curve:
            plot.add_v_line(min(k, xmax), "#fab387", f"k={k}")
        self._fit_axes(plot)
        # The key is the title line, not a box drawn over the plot (it hid the axis labels).
        plot.show_legend(is_visible=False)
        self.query_one("#curve-title", Static).update(_key(title, has_curve, bool(has_curve and renyi), levels or ()))

    def on_curve_chart_levels(self, message: Levels) -> None:
        self._levels[message.key] = message.levels
        self.redraw(self._state, self._k)

    def _renyi_points(self, state: ExplorerState, steps: list[MergeStep]) -> tuple[EfficiencyPoint, ...]:
        """The efficiency line of ``state``'s log: computed, or asked of a worker. Meanwhile the
        same run's line for a shorter log is drawn (a run still training grows it), never another's."""
        key = _renyi_key(state)
        if key is None or state.initial_types is None:
            return ()
        if self._renyi is not None and self._renyi[0] == key:
            return self._renyi[1]
        if self._renyi_asked != key:
            self._renyi_asked = key
            self._renyi_worker(key, steps, state.initial_types)
        same_run = self._renyi is not None and self._renyi[0][0] == key[0]
        return self._renyi[1] if self._renyi is not None and same_run else ()

    @work(thread=True, exit_on_error=False, group="curve-renyi", exclusive=True, description="Rényi efficiency per merge")
    def _renyi_worker(self, key: RenyiKey, steps: list[MergeStep], initial_types: Callable[[], Mapping[str, int]]) -> None:
        points = efficiency_curve(steps, initial_types(), max_points=MAX_POINTS)
        self.post_message(self.Efficiency(key, tuple(points)))

    def on_curve_chart_efficiency(self, message: Efficiency) -> None:
        """A line arrived: kept if it is the newest asked for (an older run's is dropped)."""
        if message.key == self._renyi_asked:
            self._renyi = (message.key, message.points)
            self.redraw(self._state, self._k)

    @work(thread=True, exit_on_error=False, group="curve-levels", description="compression levels of the corpus")
    def _levels_worker(self, key: tuple[int, int], corpus: str) -> None:
        levels = []
        for name in REFERENCES:
            tok = sources.get(name, lambda: None)
            try:
                levels.append(reference_level(tok, corpus, special_mode="text"))
            except BpeEngineError:
                continue  # a missing reference simply has no line
        self.post_message(self.Levels(key, tuple(levels)))



RenyiKey = tuple[object, int, int]
"""Which efficiency line: (the run's ``initial_types``, the log's identity, its length)."""


def _renyi_key(state: ExplorerState) -> RenyiKey | None:
    """The line's key for ``state`` (None without the run's initial counts: a hand-made state)."""
    if state.initial_types is None:
        return None
    return (state.initial_types, id(state.merges), len(state.merges))


def _key(title: str, has_curve: bool, has_renyi: bool, levels: tuple[ReferenceLevel, ...]) -> Text:
    """The title with the chart's key: each line's mark in its colour."""
    out = Text(title, style="bold")
    if has_curve:
        out.append(" ⣀ ours", COLOURS["ours"])
    if has_renyi:
        out.append(f" {RENYI_MARK} {RENYI_LABEL}", COLOURS["renyi"])
    for level in levels:
        out.append(f" {MARKERS.get(level.name, '*')} {level.name}", COLOURS.get(level.name, "white"))
    return out
