"""The line under Compare's compression curve: the premium of the training corpus's languages per merge step.

A model trained on English + Korean: Korean's premium against English on the UDHR (tokens of the
Korean declaration over the English one's, on the articles both have) after k merges, for k from 0
to the last merge, as a sparkline with its first and last values, its value at the slider's k, and
the stretch of merges that moved it most (:mod:`bpe_engine.metrics.languages.premium_curve`). The
points are computed in a worker, once per model (its merge log); the slider's k only re-reads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.message import Message

from ..state import ExplorerState
from ..widgets.steady_static import SteadyStatic

if TYPE_CHECKING:  # numpy comes with the engine's curve: imported when the Curve is first drawn
    from bpe_engine.metrics.languages.premium_curve import PremiumPoint

SPARKS = "▁▂▃▄▅▆▇█"
POINTS = 16


def sparkline(values: list[float]) -> str:
    """Values as eighth-height bars, the highest full."""
    low, high = min(values), max(values)
    span = high - low or 1.0
    return "".join(SPARKS[min(int((v - low) / span * (len(SPARKS) - 1) + 0.5), len(SPARKS) - 1)] for v in values)


def premium_text(name: str, curve: list[PremiumPoint], k: int) -> Text:
    """``Korean premium (UDHR) ▇▅▃▂▁ ×1.07 at k=0 → ×0.73 at k=1244 · k=600: ×0.77 · most moved by k=0–83 (−0.11)``."""
    from bpe_engine.metrics.languages.premium_curve import steepest_fall

    points = [p for p in curve if p.premium is not None]
    out = Text(f"{name} premium (UDHR) ", style="bold", no_wrap=True, overflow="ellipsis")
    if not points:
        return out.append("–")
    out.append(sparkline([p.premium for p in points if p.premium is not None]), style="#f38ba8")
    first, last = points[0], points[-1]
    out.append(f" ×{first.premium:.2f} at k={first.k} → ×{last.premium:.2f} at k={last.k}")
    near = min(points, key=lambda p: abs(p.k - k))
    out.append(f" · k≈{near.k}: ×{near.premium:.2f}", style="#fab387")
    fall = steepest_fall(points)
    if fall is not None:
        out.append(f" · most moved by merges {fall[0]}–{fall[1]} (−{fall[2]:.2f})", style="dim")
    return out


class PremiumLine(SteadyStatic):
    """One line per corpus language other than English (none: the line is empty)."""

    DEFAULT_CSS = "PremiumLine { height: 1; }"

    class Computed(Message):
        def __init__(self, key: tuple[int, int], curves: list[tuple[str, list[PremiumPoint]]]) -> None:
            super().__init__()
            self.key, self.curves = key, curves

    def __init__(self) -> None:
        super().__init__(id="curve-premium", markup=False)
        self._key: tuple[int, int] | None = None
        self._curves: list[tuple[str, list[PremiumPoint]]] = []
        self._k = 0

    def follow(self, state: ExplorerState, k: int) -> None:
        """Show the curves of ``state``'s model at ``k`` (asking a worker for a model not seen yet)."""
        self._k = k
        n = state.merge_count
        key = (id(state.tokenizer), n)
        if state.tokenizer is None or not n or not state.corpus:
            self._key, self._curves = None, []
        elif key != self._key:
            self._key, self._curves = key, []
            self._compute(key, state, n)
        self._draw()

    @work(thread=True, exit_on_error=False, group="curve-premium", exclusive=True, description="premium per merge step")
    def _compute(self, key: tuple[int, int], state: ExplorerState, n: int) -> None:
        from bpe_engine.metrics.languages.premium_curve import corpus_languages, premium_curve

        curves = []
        for language in corpus_languages(state.corpus):
            tokenizer_at: Any = state.tokenizer_at
            curves.append((language.name, premium_curve(tokenizer_at, n, language, points=POINTS)))
        self.post_message(self.Computed(key, curves))

    def on_premium_line_computed(self, message: Computed) -> None:
        message.stop()
        if message.key == self._key:
            self._curves = message.curves
            self._draw()

    def _draw(self) -> None:
        """The first language's line (one row: the plot keeps the rest), hidden when there is none."""
        lines = [premium_text(name, curve, self._k) for name, curve in self._curves]
        self.display = bool(lines)
        self.show(lines[0] if lines else Text(""))


__all__ = ["PremiumLine", "premium_text", "sparkline"]
