"""Compare's Languages view: which of the rows is fair to which language.

For the current row's tokenizer, a bar per shipped UDHR language (532; ``bpe-explorer languages``'s
figures, :mod:`bpe_engine.compare.languages`), premium against English or bytes per token
(``m`` switches), fairest first; typing in the search box keeps the languages whose name or code
holds the text. The highlighted language's article (``n``/``p``: the next or previous article) is
shown in English and in that language, each token in its colour, as this tokenizer cuts it. Your
own trained model is a row like any other: its figures are those of the model at the pane's k.

The figures are computed in a worker thread, once per tokenizer (a cache keyed by the tokenizer
object, so the "ours" row at another k is measured again); a hidden view does no work -- the pane
asks :meth:`LanguagesView.show_for` only while this view is shown. Results of a superseded request
are dropped (a generation number).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from bpe_engine.errors import BpeEngineError

from ..widgets.steady_static import SteadyStatic
from ..widgets.token_text import TokenText
from ..models import sources
from .language_bars import language_line, scale_of

if TYPE_CHECKING:  # the engine's figures bring numpy: imported when the view first measures
    from bpe_engine.compare.languages import Metric
    from bpe_engine.metrics.languages.figures import LanguageFigures

METRICS: tuple[Metric, ...] = ("premium", "bytes_per_token")
METRIC_LABELS: dict[Metric, str] = {"premium": "premium vs English", "bytes_per_token": "bytes per token"}


class LanguagesView(Vertical):
    """Search box, bars, and the highlighted language's article beside English's."""

    HELP_TITLE = "the Languages view"

    DEFAULT_CSS = """
    LanguagesView { layout: vertical; border: round $primary 30%; }
    LanguagesView #lang-title { height: 1; }
    LanguagesView #lang-search { height: 1; border: none; padding: 0 1; }
    LanguagesView #lang-bars { height: 1fr; border: none; }
    LanguagesView #lang-article { height: 40%; min-height: 4; }
    LanguagesView #lang-article TokenText { width: 1fr; height: 1fr; border-left: solid $primary 20%; }
    """
    BINDINGS = [
        Binding("m", "metric", "Premium/bytes", tooltip="switch the bars between premium vs English and bytes per token"),
        Binding("slash", "search", "Search", tooltip="search the languages by name or code"),
        Binding("n", "article(1)", "Next article", show=False, tooltip="the next article of the declaration"),
        Binding("p", "article(-1)", "Prev article", show=False, tooltip="the previous article"),
        Binding("escape", "leave_search", "Leave search", show=False, tooltip="from the search box back to the bars"),
    ]

    class Measured(Message):
        """The worker's figures for one tokenizer (``error`` instead when it could not be had)."""

        def __init__(self, generation: int, label: str, tokenizer: Any, table: list[LanguageFigures] | None, error: str = "") -> None:
            super().__init__()
            self.generation, self.label, self.tokenizer, self.table, self.error = generation, label, tokenizer, table, error

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.metric: Metric = METRICS[0]
        self.article = 1
        self.label = ""
        self.tokenizer: Any = None
        self.table: list[LanguageFigures] = []
        self.shown: list[LanguageFigures] = []
        self._generation = 0
        self._cache: dict[int, tuple[Any, list[LanguageFigures]]] = {}  # id(tokenizer) -> (tokenizer, table)

    def compose(self) -> ComposeResult:
        yield SteadyStatic(id="lang-title", markup=False)
        yield Input(placeholder="search a language by name or code (/)", id="lang-search")
        yield OptionList(id="lang-bars")
        with Horizontal(id="lang-article"):
            yield TokenText(id="lang-english")
            yield TokenText(id="lang-other")

    # -- what to show ----------------------------------------------------------------------------
    def show_for(self, spec: str, label: str, ours: Callable[[], Any]) -> None:
        """Measure the row ``spec`` (called while the view is shown; the last call wins)."""
        self._generation += 1
        self.label = label
        self._title(f"{label}: measuring 532 languages…")
        self._measure(self._generation, spec, label, ours)

    @work(thread=True, exclusive=True, group="languages")
    def _measure(self, generation: int, spec: str, label: str, ours: Callable[[], Any]) -> None:
        tok = sources.get(spec, ours)
        cached = self._cache.get(id(tok))
        if cached is not None and cached[0] is tok:
            self.post_message(self.Measured(generation, label, tok, cached[1]))
            return
        from bpe_engine.compare.languages import language_table

        try:
            table = language_table(tok)
        except BpeEngineError as exc:
            self.post_message(self.Measured(generation, label, tok, None, str(exc)))
            return
        self._cache[id(tok)] = (tok, table)
        self.post_message(self.Measured(generation, label, tok, table))

    def on_languages_view_measured(self, message: Measured) -> None:
        message.stop()
        if message.generation != self._generation:
            return
        if message.table is None:
            self.tokenizer, self.table = None, []
            self._title(f"{message.label}: {message.error}")
            self._fill()
            return
        self.tokenizer, self.table = message.tokenizer, message.table
        self._fill()

    # -- drawing ---------------------------------------------------------------------------------
    def _title(self, text: str) -> None:
        self.query_one("#lang-title", SteadyStatic).show(Text(text, no_wrap=True, overflow="ellipsis"))

    def _fill(self) -> None:
        """The bars of the languages the search keeps, sorted by the metric."""
        from bpe_engine.compare.languages import search, sorted_by

        query = self.query_one("#lang-search", Input).value
        self.shown = search(sorted_by(self.table, self.metric), query)
        bars = self.query_one("#lang-bars", OptionList)
        keep = bars.highlighted_option.id if bars.highlighted_option is not None else None
        width = max((bars.scrollable_content_region.width or self.size.width) - 1, 40)
        scale = scale_of(self.shown, self.metric)
        bars.clear_options()
        bars.add_options([Option(language_line(f, self.metric, scale, width), id=f.code) for f in self.shown])
        codes = [f.code for f in self.shown]
        if self.shown:
            bars.highlighted = codes.index(keep) if keep in codes else 0
        if self.table:
            flagged = sum(1 for f in self.shown if f.unreliable)
            note = f" · {flagged} flagged ! (unknown/byte fallback)" if flagged else ""
            self._title(f"{self.label}: {METRIC_LABELS[self.metric]} · {len(self.shown)} of {len(self.table)} languages{note} · m switches")
        self._show_article()

    def _show_article(self) -> None:
        english, other = self.query_one("#lang-english", TokenText), self.query_one("#lang-other", TokenText)
        bars = self.query_one("#lang-bars", OptionList)
        option = bars.highlighted_option
        if self.tokenizer is None or option is None or option.id is None:
            english.show(None, None, empty="")
            other.show(None, None, empty="no language: type less in the search box" if self.table else "")
            return
        from bpe_engine.compare.languages import article_pair

        pair = article_pair(self.tokenizer, option.id, self.article)
        english.show(pair.english, pair.english_alignment)
        other.show(pair.other, pair.other_alignment)

    # -- events and keys -------------------------------------------------------------------------
    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.input.id == "lang-search":
            self._fill()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one("#lang-bars", OptionList).focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._show_article()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()

    def action_metric(self) -> None:
        self.metric = METRICS[(METRICS.index(self.metric) + 1) % len(METRICS)]
        self._fill()

    def action_search(self) -> None:
        self.query_one("#lang-search", Input).focus()

    def action_article(self, delta: int) -> None:
        self.article = max(0, min(self.article + delta, 30))
        self._show_article()

    def action_leave_search(self) -> None:
        """esc in the search box: back to the bars; on the bars: the search is cleared."""
        search_box = self.query_one("#lang-search", Input)
        if search_box.has_focus:
            self.focus_list()
        elif search_box.value:
            search_box.value = ""

    def focus_list(self) -> None:
        self.query_one("#lang-bars", OptionList).focus()


__all__ = ["LanguagesView"]
