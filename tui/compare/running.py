"""One comparison run, off the UI thread when it must be: load the rows' tokenizers (saying which
one is loading -- tekken's 131k ranks take a second), encode, align and wrap.

Everything here is plain data handed to the pane; nothing touches a widget.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bpe_engine.compare import Comparison, compare, wrap_axis
from bpe_engine.compare.layout import all_cuts
from bpe_engine.compare.segments import SegmentCache
from bpe_engine.types import SpecialMode

from ..models import sources

LoadProgress = Callable[[str, int, int], None]
"""``(spec, i, n)``: the ``i``-th of ``n`` tokenizers still to load is ``spec`` (about to load)."""


@dataclass(frozen=True)
class CompareResult:
    """One finished comparison with its line wrapping (blocks are laid out when drawn)."""

    generation: int
    labels: tuple[str, ...]
    comparison: Comparison
    ranges: tuple[tuple[int, int], ...]
    cuts: frozenset[int]
    width: int
    specs: tuple[str, ...] = ()


def row_labels(specs: tuple[str, ...], k: int) -> tuple[str, ...]:
    return tuple(f"ours k={k}" if s == sources.OURS else sources.row_label(s) for s in specs)


def run_comparison(
    generation: int,
    text: str,
    specs: tuple[str, ...],
    mode: SpecialMode,
    ours: Any,
    k: int,
    width: int,
    cache: SegmentCache | None = None,
    on_load: LoadProgress | None = None,
) -> CompareResult:
    """Load (cached), encode, align and wrap every row: everything the pane draws. With a
    ``cache``, only lines not seen before are encoded (typing touches one line); ``on_load`` hears
    of each tokenizer before it is loaded."""
    missing = [s for s in dict.fromkeys(specs) if not sources.is_loaded(s)]
    for i, spec in enumerate(missing, start=1):
        if on_load is not None:
            on_load(spec, i, len(missing))
        sources.get(spec, ours)
    tokenizers = [sources.get(spec, ours) for spec in specs]
    result = compare(text, tokenizers, special_mode=mode, cache=cache)
    labels = row_labels(specs, k)
    label_width = max((len(label) for label in labels), default=0) + 8  # name + token count
    cuts = all_cuts(result)
    ranges = wrap_axis(result.text, cuts, max(width - label_width, 20))
    return CompareResult(generation, labels, result, tuple(ranges), cuts, width, specs)
