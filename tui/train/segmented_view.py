"""The corpus drawn token by token at step k, with the step's numbers above it.

Only a window of the corpus is drawn (a few thousand characters) so a step costs the same on a
10 MB corpus as on the sample: the window starts at the line of the first place the selected
step changed (a merge's first rewritten word), unless that place is already inside the window
being shown. Any stepper draws here (:mod:`tui.train.runs`): it gives the window's pieces and
tokens, the token to highlight, and where its last step changed the corpus.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical

from bpe_engine.core.block_text import Text as CorpusText
from bpe_engine.display import visible_text

from ..widgets.fixed_text import FixedText
from .render import HIGHLIGHT_STYLE, segmented_text, token_text
from .runs import AnyStepper

WINDOW_CHARS = 3000


class SegmentedView(Vertical):
    """Header (step, tokens, tokens per character) + the segmented corpus window."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.window_start = 0
        self.window_chars = WINDOW_CHARS
        self._shown = (0, 0)
        self.corpus_label = ""  # which corpus is drawn (it may not be the one in the editor)

    def compose(self) -> ComposeResult:
        yield FixedText(id="step-status")
        yield FixedText(id="segmented-text")

    def show_empty(self, message: str) -> None:
        self.query_one("#step-status", FixedText).show(Text(message, style="dim"))
        self.query_one("#segmented-text", FixedText).show("")

    def show_status(self, stepper: AnyStepper, text: CorpusText, *, byte_level: bool, playing: bool = False) -> None:
        """Only the header (steps keep arriving while the step stays put: no corpus redraw)."""
        self.query_one("#step-status", FixedText).show(self._status(stepper, len(text), byte_level=byte_level, playing=playing))

    def show(self, stepper: AnyStepper, text: CorpusText, *, byte_level: bool, playing: bool = False) -> None:
        """Redraw for the stepper's current step (what its last step made is highlighted)."""
        view = self.query_one("#segmented-text", FixedText).size
        # Draw about what fits (a screenful of characters, with slack for short lines).
        self.window_chars = max(600, min(WINDOW_CHARS, view.width * view.height * 4 // 3))
        at = stepper.focus()
        if at is not None:
            if not self.window_start <= at < self.window_start + self.window_chars // 2:
                self.window_start = text.rfind("\n", 0, at) + 1
                if at - self.window_start > 500:
                    self.window_start = at
        elif stepper.step == 0:
            self.window_start = 0
        start = min(self.window_start, len(text))
        end = min(start + self.window_chars, len(text))
        line_end = text.find("\n", end)
        if 0 <= line_end < end + 200:  # the last line whole (a Unigram step segments whole lines)
            end = line_end
        self._shown = (start, end)
        self.query_one("#step-status", FixedText).show(self._status(stepper, len(text), byte_level=byte_level, playing=playing))
        pieces = stepper.window(text, start, end) if stepper.ready() else ()
        body = segmented_text(pieces, text, start, end, byte_level=byte_level, highlight=stepper.highlight())
        self.query_one("#segmented-text", FixedText).show(body)

    def _status(self, stepper: AnyStepper, length: int, *, byte_level: bool, playing: bool) -> Text:
        highlight = stepper.highlight()
        start, end = self._shown
        status = Text.assemble(("step ", "dim"), (f"{stepper.step:,}", "bold"), (f"/{stepper.available:,}", "dim"))
        tokens = stepper.token_count
        if tokens is not None:
            status.append(" · ", "dim")
            status.append(f"{tokens:,}", "bold")
            initial = stepper.initial_token_count
            status.append(f" tokens (from {initial:,})" if initial else " tokens", "dim")
            if stepper.characters:
                status.append(" · ", "dim")
                status.append(f"{tokens / stepper.characters:.3f}", "bold")
                status.append(" tokens/char", "dim")
        if not stepper.ready():
            status.append(" · segmenting with the model of this step…", "yellow")
        if highlight is not None:
            status.append(" · new ", "dim")
            status.append(token_text(highlight, byte_level=byte_level), HIGHLIGHT_STYLE)
        if playing:
            status.append(" ▶ playing", "bold green")
        where = f"\n{visible_text(self.corpus_label)}: " if self.corpus_label else "\n"
        if end - start < length:
            status.append(f"{where}characters {start:,}–{end:,} of {length:,}", "dim")
        elif self.corpus_label:
            status.append(where.rstrip(": "), "dim")
        return status


__all__ = ["SegmentedView"]
