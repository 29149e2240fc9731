"""Choose tokenizers, fetching the built-ins that are missing: the one flow Compare and Inspect share.

Picker first (:class:`~tui.models.picker.TokenizerPicker`); if the choice holds built-ins that are
not fetched yet, the fetch screen runs them (:class:`~tui.models.fetch_screen.FetchScreen`) and
says what arrived; ``on_done`` gets the chosen specs that can be used now (a failed or cancelled
fetch drops only its own names).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.app import App

from .fetch_screen import FetchOutcome, FetchScreen
from .picker import Picked, TokenizerPicker


def choose_tokenizers(
    app: App[object],
    chosen: Sequence[str],
    on_done: Callable[[tuple[str, ...]], None],
    *,
    multiple: bool = True,
    title: str = "",
) -> None:
    """Open the picker on ``chosen``; call ``on_done`` with the usable choice (not on cancel)."""

    def picked(result: Picked | None) -> None:
        if result is None:
            return
        if not result.fetch:
            on_done(result.specs)
            return
        fetch_then(app, result.fetch, lambda ok: on_done(tuple(s for s in result.specs if s not in result.fetch or s in ok)))

    app.push_screen(TokenizerPicker(chosen, multiple=multiple, title=title), picked)


def fetch_then(app: App[object], names: Sequence[str], on_done: Callable[[tuple[str, ...]], None]) -> None:
    """Fetch built-ins ``names`` (progress, cancel), say how it went, then ``on_done(present)``."""

    def fetched(outcome: FetchOutcome | None) -> None:
        if outcome is None:
            return
        failed = bool(outcome.error) or outcome.cancelled
        app.notify(outcome.summary(), severity="error" if outcome.error else "warning" if failed else "information", timeout=8 if failed else 4)
        on_done(outcome.fetched)

    app.push_screen(FetchScreen(names), fetched)
