"""The corpus drawn token by token at step k, with the step's numbers above it.

Only a window of the corpus is drawn (a few thousand characters) so a step costs the same on a
10 MB corpus as on the sample: the window starts at the line of the first word the selected
merge changed, unless that word is already inside the window being shown.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical

from bpe_engine.display import visible_text
from bpe_engine.explore.stepper import Stepper

from ..widgets.fixed_text import FixedText
from .render import segmented_text, token_text

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

    def show_status(self, stepper: Stepper, text: str, *, byte_level: bool, playing: bool = False) -> None:
        """Only the header (merges keep arriving while the step stays put: no corpus redraw)."""
        self.query_one("#step-status", FixedText).show(
            self._status(stepper, len(text), byte_level=byte_level, playing=playing)
        )

    def show(self, stepper: Stepper, text: str, *, byte_level: bool, playing: bool = False) -> None:
        """Redraw for the stepper's current step (the last applied merge is highlighted)."""
        step = stepper.step
        highlight = stepper.merge_at(step - 1)[2] if step else None  # the last applied merge's token
        view = self.query_one("#segmented-text", FixedText).size
        # Draw about what fits (a screenful of characters, with slack for short lines).
        self.window_chars = max(600, min(WINDOW_CHARS, view.width * view.height * 4 // 3))
        changed = stepper.last_changed_word_ids()
        if changed:
            first = stepper.first_piece_of(changed)
            if first is not None:
                at = stepper.piece_starts[first]
                if not self.window_start <= at < self.window_start + self.window_chars // 2:
                    self.window_start = text.rfind("\n", 0, at) + 1
                    if at - self.window_start > 500:
                        self.window_start = at
        elif step == 0:
            self.window_start = 0
        start = min(self.window_start, len(text))
        end = min(start + self.window_chars, len(text))
        self._shown = (start, end)
        self.query_one("#step-status", FixedText).show(
            self._status(stepper, len(text), byte_level=byte_level, playing=playing)
        )
        self.query_one("#segmented-text", FixedText).show(
            segmented_text(stepper, text, start, end, byte_level=byte_level, highlight=highlight)
        )

    def _status(self, stepper: Stepper, length: int, *, byte_level: bool, playing: bool) -> Text:
        step = stepper.step
        highlight = stepper.merge_at(step - 1)[2] if step else None
        start, end = self._shown
        status = Text.assemble(
            ("step ", "dim"),
            (f"{step:,}", "bold"),
            (f"/{stepper.available:,}", "dim"),
            (" · ", "dim"),
            (f"{stepper.token_count:,}", "bold"),
            (f" tokens (from {stepper.initial_token_count:,})", "dim"),
            (" · ", "dim"),
            (f"{stepper.tokens_per_char:.3f}", "bold"),
            (" tokens/char", "dim"),
        )
        if highlight is not None:
            status.append(" · new ", "dim")
            status.append(token_text(highlight, byte_level=byte_level), "bold black on #e0b040")
        if playing:
            status.append(" ▶ playing", "bold green")
        where = f"\n{visible_text(self.corpus_label)}: " if self.corpus_label else "\n"
        if end - start < length:
            status.append(f"{where}characters {start:,}–{end:,} of {length:,}", "dim")
        elif self.corpus_label:
            status.append(where.rstrip(": "), "dim")
        return status
