"""The corpus editor with live facts (characters, bytes, words, unique words, distinct symbols).

Facts are recomputed off the UI thread, debounced, because pre-tokenizing a 10 MB corpus takes
longer than a keystroke. The pane tells the app about edits with :class:`CorpusPane.Edited` so
the app can offer to retrain. The facts come from the corpus cut into the very words a trainer
counts (:class:`~bpe_engine.corpus.cut.CorpusWords`), and the cut goes up with them: a run
started on the same text and pre-tokenizer trains on it instead of cutting the corpus again.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import TextArea
from textual.worker import get_current_worker

from bpe_engine.core.block_text import BlockText, whole
from bpe_engine.core.block_text import Text as CorpusText
from bpe_engine.corpus import CorpusStats, stats_of_words
from bpe_engine.corpus.cut import CorpusCancelled, CorpusWords
from bpe_engine.display import noun_for, visible_text
from bpe_engine.pretokenizer_fit import pattern_warning
from bpe_engine.pretokenizers import GPT2, PreTokenizer

from ..widgets.safe_text import AREA_CAPACITY, SafeTextArea, TooLong
from ..widgets.steady_static import SteadyStatic
from .render import counting_text

FACTS_DELAY = 0.3
EDIT_LIMIT = AREA_CAPACITY  # characters: a bigger corpus (opened or pasted) is shown as a
# read-only preview of its head and kept whole for training, in blocks (BlockText): one emoji
# made a 50 MB corpus held as one str 200 MB.


class CorpusCounting(Message):
    """The worker has cut ``done`` of ``total`` characters of one version of the text (a 50 MB
    corpus takes ~10 s: the facts line shows it move)."""

    def __init__(self, version: int, done: int, total: int) -> None:
        super().__init__()
        self.version = version
        self.done = done
        self.total = total


class CorpusFacts(Message):
    """Facts computed by the worker for one version of the text (dropped if the text moved on)."""

    def __init__(self, version: int, stats: CorpusStats, cut: CorpusCut, pattern_warning: str | None = None) -> None:
        super().__init__()
        self.version = version
        self.stats = stats
        self.cut = cut
        self.pattern_warning = pattern_warning  # the scripts this pre-tokenizer cuts apart (bpe_engine.pretokenizer_fit)


@dataclass(frozen=True, eq=False)
class CorpusCut:
    """``text`` cut into ``words`` by ``pre_tokenizer``: what a run on that text may reuse."""

    text: CorpusText
    pre_tokenizer: PreTokenizer
    words: CorpusWords

    def words_for(self, text: CorpusText, pre_tokenizer: object) -> CorpusWords | None:
        """The cut, if it is of exactly this text and pre-tokenizer (None: the run cuts again)."""
        same = pre_tokenizer == self.pre_tokenizer and text == self.text  # `is` first: no copy compared
        return self.words if same else None


class CorpusPane(Vertical):
    """TextArea holding the corpus plus a one-line summary of what the trainer will see."""

    class Edited(Message):
        """The user changed the corpus text (typing, pasting, opening a file)."""

    class Facts(Message):
        """Fresh facts of the current text (the settings form needs its alphabet) and its cut."""

        def __init__(self, stats: CorpusStats, cut: CorpusCut, pattern_warning: str | None = None) -> None:
            super().__init__()
            self.stats = stats
            self.cut = cut
            self.pattern_warning = pattern_warning

    def __init__(self, text: CorpusText = "", *, source: str = "sample corpus", id: str | None = None) -> None:
        super().__init__(id=id)
        self._initial: CorpusText = text
        self.source = source
        self.pre_tokenizer: PreTokenizer = GPT2
        self._version = 0
        self._timer: Timer | None = None
        self._big: BlockText | None = None  # the whole corpus when the editor only shows its head

    def compose(self) -> ComposeResult:
        initial, self._initial = self._initial, ""  # held from here on by _big or the editor only
        area = SafeTextArea(self._head(initial), id="corpus-text", soft_wrap=True, tab_behavior="focus", keep_whole=True)
        area.border_title = Text(visible_text(self.source))  # Text: a file name is never markup
        self._mark_preview(area, initial)
        yield area
        yield SteadyStatic("", id="corpus-facts", markup=False)  # counting moves ~5x/s: no layout each

    def on_mount(self) -> None:
        # After the first frame: counting a big corpus in a thread holds the GIL and would hold
        # back the first paint (a 5 MB file counts for ~1 s).
        self.call_after_refresh(self.refresh_facts)

    @property
    def text(self) -> CorpusText:
        """The whole corpus: a ``str`` when the editor holds it, a BlockText when it is bigger."""
        if self._big is not None:
            return self._big
        return self.query_one("#corpus-text", TextArea).text

    def _head(self, text: CorpusText) -> str:
        """What the editor shows of ``text``; a big text is kept in blocks as the corpus."""
        self._big = BlockText.of(text) if len(text) > EDIT_LIMIT else None
        return self._big[:EDIT_LIMIT] if self._big is not None else whole(text)

    def _mark_preview(self, area: TextArea, text: CorpusText) -> None:
        area.read_only = self._big is not None
        notes = []
        if text.startswith("\ufeff"):
            notes.append("starts with a <BOM> (kept, as the CLI keeps it)")
        if self._big is not None:
            notes.append(f"read-only preview: first {EDIT_LIMIT:,} of {len(text):,} characters (training uses all)")
        area.border_subtitle = Text(" · ".join(notes))

    def load(self, text: CorpusText, source: str) -> None:
        """Replace the corpus (opening a file): counts as an edit."""
        self.source = source
        area = self.query_one("#corpus-text", TextArea)
        area.border_title = Text(visible_text(source))
        head = self._head(text)
        self._mark_preview(area, text)
        area.load_text(head)  # posts TextArea.Changed: Edited and the facts follow from there

    def on_too_long(self, message: TooLong) -> None:
        """A paste made the corpus bigger than the editor holds: keep it whole for training and
        show its head, as for an opened file (pasted into the editor, it froze the app)."""
        message.stop()
        self.load(message.text, self.source)

    def set_pre_tokenizer(self, pre_tokenizer: PreTokenizer) -> None:
        """Words depend on the pre-tokenizer; the facts follow the settings form."""
        if pre_tokenizer != self.pre_tokenizer:
            self.pre_tokenizer = pre_tokenizer
            self.refresh_facts()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self.post_message(self.Edited())
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(FACTS_DELAY, self.refresh_facts)

    def refresh_facts(self) -> None:
        self._version += 1
        self.query_one("#corpus-facts", SteadyStatic).show(Text("counting…", style="dim"))
        self._compute_facts(self.text, self.pre_tokenizer, self._version)

    def _counted(self, version: int, done: int, total: int) -> None:
        self.post_message(CorpusCounting(version, done, total))

    # Named: without a description Textual builds one from repr() of the arguments, on the UI
    # thread -- the whole corpus, 50 ms for 5 MB (every worker that takes text is named so).
    @work(thread=True, exclusive=True, group="corpus-facts", exit_on_error=False, description="counting the corpus")
    def _compute_facts(self, text: CorpusText, pre_tokenizer: PreTokenizer, version: int) -> None:
        worker = get_current_worker()
        try:
            words = CorpusWords.from_text(
                text,
                pre_tokenizer,
                cancelled=lambda: worker.is_cancelled,
                progress=lambda done: self._counted(version, done, len(text)),
            )
        except CorpusCancelled:
            return
        if worker.is_cancelled:
            return
        warning = pattern_warning(pre_tokenizer, text) if isinstance(pre_tokenizer, PreTokenizer) else None
        self.post_message(CorpusFacts(version, stats_of_words(text, words), CorpusCut(text, pre_tokenizer, words), warning))

    def on_corpus_counting(self, message: CorpusCounting) -> None:
        message.stop()
        if message.version == self._version:
            self.query_one("#corpus-facts", SteadyStatic).show(counting_text(message.done, message.total))

    def on_corpus_facts(self, message: CorpusFacts) -> None:
        message.stop()
        if message.version != self._version:
            return
        stats = message.stats
        line = Text.assemble(
            (f"{stats.characters:,}", "bold"),
            f" {noun_for(stats.characters, 'char')} · ",
            (f"{stats.bytes:,}", "bold"),
            f" {noun_for(stats.bytes, 'byte')} · ",
            (f"{stats.words:,}", "bold"),
            f" {noun_for(stats.words, 'word')} · ",
            (f"{stats.unique_words:,}", "bold"),
            " unique · ",
            (f"{stats.distinct_characters:,}", "bold"),
            f" distinct {noun_for(stats.distinct_characters, 'char')} · ",
            (f"{stats.distinct_bytes:,}", "bold"),
            f" distinct {noun_for(stats.distinct_bytes, 'byte')}",
        )
        self.query_one("#corpus-facts", SteadyStatic).show(line)
        self.post_message(self.Facts(stats, message.cut, message.pattern_warning))
