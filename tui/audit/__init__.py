"""The vocabulary audit in the app: a screen over Inspect (ctrl+p → "Audit vocabulary"), a token
picked there is inspected; ``p`` there prunes the tokenizer (:mod:`.prune_screen`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .screen import AuditPick, AuditScreen

if TYPE_CHECKING:
    from textual.app import App


def open_audit(app: App[object]) -> None:
    """Audit the tokenizer Inspect shows; a picked token goes back to Inspect, with that tokenizer."""
    from ..inspect.pane import InspectorPane

    pane = app.query_one(InspectorPane)
    result = pane.result
    if result is None or result.tokenizer is None or result.error is not None:
        app.notify("Inspect has no tokenizer loaded yet: pick one on the Inspect tab (f3), then audit it", severity="warning")
        return

    def picked(choice: AuditPick | None) -> None:
        if choice is None:
            return
        app.action_show_tab("inspect-tab")  # type: ignore[attr-defined]
        pane.inspect(choice.text, choice.spec)

    corpus = app.train_pane.state.corpus  # type: ignore[attr-defined]  # the app's Train pane: what a prune is measured on
    app.push_screen(AuditScreen(result.tokenizer, result.spec, corpus), picked)


__all__ = ["AuditPick", "AuditScreen", "open_audit"]
