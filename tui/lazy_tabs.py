"""The tabs whose pane is imported and mounted when first shown: Inspect and Compare.

A user who only trains should not wait at start-up for the ~85 ms of imports and the reference
tokenizers these panes load; so each is a placeholder until its tab is first shown, and once the
corpus is counted a worker warms the imports up off the UI thread.
"""

from __future__ import annotations

import threading

from .state_pane import StatePane

LAZY_PANES = {"inspect-tab": "inspector", "compare-tab": "compare"}
"""Tabs whose pane is imported and mounted when first shown (tab id -> pane id)."""
_IMPORTING_PANES = threading.Lock()


def lazy_pane(tab_id: str) -> type[StatePane]:
    """The pane class of a lazy tab, imported on first use. One thread imports at a time: the
    warm-up may be at it."""
    with _IMPORTING_PANES:
        if tab_id == "inspect-tab":
            from .inspect import InspectorPane

            return InspectorPane
        from .compare import ComparePane

        return ComparePane


def warm_up_lazy_panes() -> None:
    """Off the UI thread, once the corpus is counted: import the lazy panes and load Inspect's first
    tokenizer into the sources' cache (the first f3 waited for both). Touches no widget.

    The metrics' efficiencies come too: Compare's first run measures every row with them, and
    their numpy (~0.1 s) would otherwise be imported on the UI thread by the first f4's run."""
    for tab_id in LAZY_PANES:
        lazy_pane(tab_id)
    import bpe_engine.metrics.efficiency  # noqa: F401 - imported for the first Compare run

    from .inspect import DEFAULT_SPEC
    from .models import sources

    sources.get(DEFAULT_SPEC, lambda: None)


__all__ = ["LAZY_PANES", "lazy_pane", "warm_up_lazy_panes"]
