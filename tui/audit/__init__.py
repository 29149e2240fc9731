"""The vocabulary audit in the app: a screen over Inspect (ctrl+p → "Audit vocabulary"); a token
picked there is inspected, and ``p`` there prunes the tokenizer (:mod:`.prune_screen`). Which pane
it audits and where a pick goes is the app's routing (:func:`tui.commands.open_audit`): the audit
knows no other tab."""

from __future__ import annotations

from .screen import AuditPick, AuditScreen

__all__ = ["AuditPick", "AuditScreen"]
