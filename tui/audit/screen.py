"""The vocabulary audit over Inspect: every token of the tokenizer in use, sorted the Magikarp way.

The audit (:mod:`bpe_engine.audit`) runs in a worker -- about a second for 200,000 ids, minutes for
a slow tokenizer -- with its progress shown and ``esc`` stopping it. Then the categories with their
counts (↑/↓ or a click chooses one) above that category's tokens: id, the token, and for those the
encoder never produces from their own text, what that text encodes to and why. ``enter`` (or a
click) on a token closes the audit and inspects the token's text with the same tokenizer.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from bpe_engine.audit import CATEGORIES, AuditCancelled, Unreachable, VocabularyAudit, audit_vocabulary, explain_unreachable
from bpe_engine.choices import AUDIT_CATEGORIES, AuditCategory
from bpe_engine.display import decode_bytes_visibly, visible_text

SHOWN_ROWS = 1000
"""Tokens listed per category (o200k_base has 198,424 ``ok`` ones; the CLI's --json has them all)."""
EXPLAINED = 200
"""Unreachable tokens explained in the worker (each probes a few longer texts)."""


@dataclass(frozen=True)
class AuditPick:
    """The token the user chose: inspect ``text`` with tokenizer ``spec``."""

    spec: str
    token_id: int
    text: str


class AuditScreen(ModalScreen[AuditPick | None]):
    """The audit of ``tokenizer`` (Inspect's, named ``spec`` there)."""

    DEFAULT_CSS = """
    AuditScreen .audit-box { height: 90%; max-width: 140; }
    AuditScreen #audit-counts { height: 9; }
    AuditScreen #audit-tokens { height: 1fr; }
    AuditScreen #audit-status, AuditScreen #audit-note { height: auto; }
    """
    BINDINGS = [Binding("escape", "close", "Close"), Binding("p", "prune", "Prune")]

    class Progress(Message):
        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done, self.total = done, total

    class Done(Message):
        def __init__(self, audit: VocabularyAudit | None, explained: dict[int, Unreachable], error: str | None) -> None:
            super().__init__()
            self.audit, self.explained, self.error = audit, explained, error

    def __init__(self, tokenizer: Any, spec: str, corpus: str = "") -> None:
        super().__init__()
        self._tokenizer = tokenizer
        self._spec = spec
        self._corpus = corpus  # what a prune's "the corpus pays" is measured on
        self._cancel = threading.Event()
        self._audit: VocabularyAudit | None = None
        self._explained: dict[int, Unreachable] = {}
        self._category: AuditCategory = "unreachable_multi"

    def compose(self) -> ComposeResult:
        with Vertical(classes="modal-box audit-box"):
            yield Label(f"Audit of {visible_text(self._tokenizer.name)}: each token decoded alone and encoded again", classes="modal-title")
            yield Static(Text("auditing…", style="dim italic"), id="audit-status")
            yield DataTable(id="audit-counts", cursor_type="row")
            yield DataTable(id="audit-tokens", cursor_type="row")
            yield Static(Text("enter: inspect the token · p: prune · esc: close", style="dim"), id="audit-note")

    def on_mount(self) -> None:
        counts = self.query_one("#audit-counts", DataTable)
        counts.add_columns("category", "tokens", "what")
        self.query_one("#audit-tokens", DataTable).add_columns("id", "token", "encodes to", "why")
        self._audit_worker()

    def on_unmount(self) -> None:
        self._cancel.set()

    @property
    def audit(self) -> VocabularyAudit | None:
        return self._audit

    @work(thread=True, exclusive=True, exit_on_error=False, group="audit")
    def _audit_worker(self) -> None:
        tok = self._tokenizer
        try:
            audit = audit_vocabulary(tok, progress=self._progress, cancel=self._cancel)
            unreachable = sorted((*audit.ids["unreachable_single"], *audit.ids["unreachable_multi"]))[:EXPLAINED]
            explained = {i: explain_unreachable(tok, i, audit.encodes_to[i]) for i in unreachable if not self._cancel.is_set()}
        except AuditCancelled:
            return
        except Exception as exc:  # noqa: BLE001 - a loaded tokenizer must not take the app down
            self.post_message(self.Done(None, {}, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(self.Done(audit, explained, None))

    def _progress(self, done: int, total: int) -> None:
        """In the worker: ``done`` of ``total`` ids audited."""
        self.post_message(self.Progress(done, total))

    def on_audit_screen_progress(self, message: Progress) -> None:
        if self._audit is None:
            self.query_one("#audit-status", Static).update(Text(f"auditing… {message.done:,} / {message.total:,} ids", style="dim italic"))

    def on_audit_screen_done(self, message: Done) -> None:
        status = self.query_one("#audit-status", Static)
        if message.audit is None:
            status.update(Text(f"the audit failed: {visible_text(message.error or '')}", style="red"))
            return
        self._audit, self._explained = message.audit, message.explained
        audit = message.audit
        status.update(Text(f"{audit.vocab_size:,} ids" + "".join(f" · {n}" for n in audit.notes)))
        counts = self.query_one("#audit-counts", DataTable)
        for choice in AUDIT_CATEGORIES:
            counts.add_row(choice.value, f"{audit.counts[choice.value]:,}", choice.help, key=choice.value)
        if not audit.ids[self._category]:
            self._category = "unreachable_single" if audit.ids["unreachable_single"] else "ok"
        counts.move_cursor(row=counts.get_row_index(self._category))
        self._show(self._category)
        counts.focus()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        category = next((c for c in CATEGORIES if c == event.row_key.value), None)  # the rows are keyed by category
        if event.data_table.id == "audit-counts" and self._audit is not None and category is not None:
            self._show(category)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.data_table.id == "audit-counts":
            self.query_one("#audit-tokens", DataTable).focus()
        elif event.row_key.value is not None:
            self.pick(int(event.row_key.value))

    def pick(self, token_id: int) -> None:
        """Close and inspect ``token_id``'s text."""
        self.dismiss(AuditPick(self._spec, token_id, self._tokenizer.decode([token_id])))

    def _show(self, category: AuditCategory) -> None:
        assert self._audit is not None
        self._category = category
        table = self.query_one("#audit-tokens", DataTable)
        table.clear()
        tok = self._tokenizer
        ids = self._audit.ids[category]
        for token_id in ids[:SHOWN_ROWS]:
            why = self._explained.get(token_id)
            got = " ".join(repr(decode_bytes_visibly(tok.token_bytes(i))) if i >= 0 else "?" for i in self._audit.encodes_to.get(token_id, ()))
            reason = "" if why is None else why.reason
            if why is not None and why.context is not None:
                reason += f" (made inside {visible_text(why.context)!r})"
            table.add_row(str(token_id), repr(decode_bytes_visibly(tok.token_bytes(token_id))), got, reason, key=str(token_id))
        more = f" (the first {SHOWN_ROWS:,} of {len(ids):,})" if len(ids) > SHOWN_ROWS else ""
        self.query_one("#audit-note", Static).update(
            Text(f"{category}: {len(ids):,} tokens{more} · enter: inspect the token · p: prune · esc: close", style="dim")
        )

    def action_close(self) -> None:
        self._cancel.set()
        self.dismiss(None)

    def action_prune(self) -> None:
        """Prune the audited tokenizer (a BPE): how many ids to keep, a preview, then the files."""
        from bpe_engine.errors import ConfigError
        from bpe_engine.surgery import bpe_base

        from .prune_screen import PruneScreen

        try:
            base = bpe_base(self._tokenizer)
        except ConfigError as exc:
            self.app.notify(visible_text(str(exc)), severity="warning", timeout=8)
            return
        self.app.push_screen(PruneScreen(base, self._corpus))


__all__ = ["AuditPick", "AuditScreen"]
