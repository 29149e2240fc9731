"""One line of the Languages view: a language's name, a bar for its figure, the figure.

Pure rendering (no widget): the view builds its option list from these lines. The bar's length is
the figure over the longest shown (premiums past ×10 are clipped and end in ``▸`` so Tibetan on
GPT-2 does not flatten every other bar); eighth blocks give the bar's last cell. A premium built on
unknown or byte-fallback tokens is drawn in the warning colour with ``!`` (the count flatters the
tokenizer), whitespace words that mean little get ``?`` -- the marks of ``bpe-explorer languages``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

if TYPE_CHECKING:  # numpy comes with the engine's figures: imported when the view is first shown
    from bpe_engine.compare.languages import Metric
    from bpe_engine.metrics.languages.figures import LanguageFigures

EIGHTHS = " ▏▎▍▌▋▊▉"
PREMIUM_CLIP = 10.0
NAME_WIDTH = 18


def value(f: LanguageFigures, metric: Metric) -> float | None:
    return f.premium if metric == "premium" else f.bytes_per_token


def scale_of(figures: list[LanguageFigures], metric: Metric) -> float:
    """The figure a full bar stands for."""
    values = [v for f in figures if (v := value(f, metric)) is not None]
    top = max(values, default=1.0)
    return min(top, PREMIUM_CLIP) if metric == "premium" else top


def bar(fraction: float, width: int) -> str:
    """``fraction`` (0..1, more is clipped) of ``width`` cells in eighth blocks."""
    eighths = max(0, min(round(fraction * width * 8), width * 8))
    full, rest = divmod(eighths, 8)
    return ("█" * full + (EIGHTHS[rest] if rest else "")).ljust(width)


def language_line(f: LanguageFigures, metric: Metric, scale: float, width: int) -> Text:
    """``kor   Korean        ████████▌     ×1.36`` in ``width`` cells."""
    v = value(f, metric)
    name = f.name if len(f.name) <= NAME_WIDTH else f.name[: NAME_WIDTH - 1] + "…"
    shown = "–" if v is None else (f"×{v:.2f}" if metric == "premium" else f"{v:.2f}")
    marks = ("!" if f.unreliable else " ") + ("?" if f.words_unclear else " ")
    room = max(width - 10 - NAME_WIDTH - 2 - 8 - 2, 4)
    clipped = v is not None and metric == "premium" and v > scale
    drawn = bar((v or 0.0) / scale if scale else 0.0, room)
    if clipped:
        drawn = drawn[:-1] + "▸"
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(f"{f.code[:9]:<10}")
    line.append(f"{name:<{NAME_WIDTH}} ")
    line.append(drawn, style="yellow" if f.unreliable else "cyan")
    line.append(f" {shown:>7}", style="bold")
    line.append(marks, style="yellow")
    return line


__all__ = ["bar", "language_line", "scale_of"]
