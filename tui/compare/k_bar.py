"""Compare's k bar: the merge-prefix slider of the "ours" row and the label that says what k is.

k follows the Train step until the user moves the slider; then it stays where it was put ("fixed")
until ``f`` makes it follow again (the pane sets :attr:`KBar.following`). The bar holds that
choice and draws it; the pane gives it the app's state (an attribute, set down on every change)
and asks it to :meth:`KBar.sync` when the model or the step changed. A move of the slider bubbles
on to the pane as the slider's own :class:`~tui.compare.slider.MergeSlider.Changed` (the pane
re-runs the "ours" row and the curve): the bar only notes that the user moved it.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from ..state import ExplorerState
from .slider import MergeSlider


class KBar(Horizontal):
    """The k label beside the slider; k follows the Train step until the user slides."""

    def __init__(self, state: ExplorerState, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.state = state  # the app's newest state (the label reads its step total and training)
        self.following = True  # k follows the app's step until the user moves the slider

    def compose(self) -> ComposeResult:
        yield Static("k = 0", id="compare-k-label", markup=False)
        yield MergeSlider(id="compare-k")

    @property
    def k(self) -> int:
        return self.query_one(MergeSlider).value

    @k.setter
    def k(self, k: int) -> None:
        self.query_one(MergeSlider).value = k

    def sync(self) -> None:
        """Fit the slider to the state's model; while following, k is the Train step."""
        slider = self.query_one(MergeSlider)
        total = self.state.step_total
        if self.following:
            slider.set_range(total, self.state.step)
        else:
            slider.set_range(total)
        self._show_label()

    def on_merge_slider_changed(self, message: MergeSlider.Changed) -> None:
        """Not stopped: the pane hears the move too (``set_range`` moves are silent: this was the user)."""
        self.following = False
        self._show_label()

    def _show_label(self) -> None:
        self.query_one("#compare-k-label", Static).update(self._label())

    def _label(self) -> Text:
        total = self.state.step_total
        if not total:
            return Text("k: training…" if self.state.training else "k: nothing trained (ctrl+t)", style="bold")
        how = "follows Train step" if self.following else "fixed: f follows Train"
        return Text.assemble((f"k = {self.k:,} / {total:,}", "bold"), (f" ({how})", "dim"))
