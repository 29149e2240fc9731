"""Prune from the audit: how many ids to keep, what would go and what the corpus pays, then write it.

The engine plans and builds the pruned model (:func:`bpe_engine.surgery.prune.preview_prune`: leaves
only, the base's unreachable tokens first, then the least used on the app's corpus) in a worker;
this screen shows the preview and, on ``enter`` in the directory field, writes it in the base's formats
(:func:`bpe_engine.surgery.save.save_changed`) with the old id -> new id map. Nothing is written
before the user has seen the preview of the numbers they typed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from bpe_engine.display import decode_bytes_visibly, visible_text
from bpe_engine.errors import BpeEngineError


class PruneScreen(ModalScreen[Path | None]):
    """Prune ``base`` (a :class:`~bpe_engine.surgery.base.BpeBase`) on ``corpus``; dismissed with the
    directory written, or None."""

    DEFAULT_CSS = """
    PruneScreen .prune-box { height: auto; max-width: 110; }
    PruneScreen #prune-preview { height: auto; min-height: 4; }
    """
    BINDINGS = [Binding("escape", "close", "Close")]
    # writing is enter in the directory field: ctrl+s is the app's own save, whatever screen is up

    class Previewed(Message):
        def __init__(self, target: int, preview: Any, error: str | None) -> None:
            super().__init__()
            self.target, self.preview, self.error = target, preview, error

    class Written(Message):
        def __init__(self, directory: Path | None, error: str | None) -> None:
            super().__init__()
            self.directory, self.error = directory, error

    def __init__(self, base: Any, corpus: str) -> None:
        super().__init__()
        self._base = base
        self._corpus = corpus
        self._preview: Any = None
        self._previewed_for: int | None = None

    def compose(self) -> ComposeResult:
        size = self._base.tokenizer.vocab_size
        with Vertical(classes="modal-box prune-box"):
            yield Label(f"Prune {visible_text(self._base.name)} ({size:,} ids): leaves only, every token left reachable", classes="modal-title")
            yield Label("keep this many ids (specials included), then enter to see what goes:")
            yield Input(str(max(size // 2, 1)), id="prune-to")
            yield Label("write into the directory:")
            yield Input(f"{self._base.name}-pruned", id="prune-out")
            yield Static(Text("enter in the first field: preview · enter in the directory field: write · esc: close", style="dim"), id="prune-preview")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "prune-to":
            self.preview()
        else:
            self.action_write()

    def preview(self) -> None:
        text = self.query_one("#prune-to", Input).value.replace(",", "").replace("_", "").strip()
        if not text.isdigit() or int(text) < 1:
            self._say(Text("the number of ids to keep must be a whole number, e.g. 32000", style="red"))
            return
        self._say(Text("choosing the leaves to remove…", style="dim italic"))
        self._preview_worker(int(text))

    @work(thread=True, exclusive=True, exit_on_error=False, group="prune")
    def _preview_worker(self, target: int) -> None:
        from bpe_engine.surgery.prune import preview_prune

        try:
            preview = preview_prune(self._base, target, self._corpus or None, f"{self._base.name}-{target}")
        except BpeEngineError as exc:
            self.post_message(self.Previewed(target, None, str(exc)))
            return
        self.post_message(self.Previewed(target, preview, None))

    def on_prune_screen_previewed(self, message: Previewed) -> None:
        if message.preview is None:
            self._say(Text(visible_text(message.error or ""), style="red"))
            return
        self._preview, self._previewed_for = message.preview, message.target
        p = message.preview
        lines = Text()
        removed = len(p.plan.removed)
        lines.append(f"removes {removed:,} tokens, keeps {len(p.id_map):,} ids (renumbered 0-{len(p.id_map) - 1:,} in their order)")
        if p.plan.unreachable_removed:
            lines.append(f"; {p.plan.unreachable_removed:,} of them were unreachable")
        if p.tokens_before is not None and p.tokens_after is not None:
            change = (p.tokens_after - p.tokens_before) / max(p.tokens_before, 1)
            lines.append(f"\nthe corpus pays: {p.tokens_before:,} -> {p.tokens_after:,} tokens ({change:+.1%})")
        else:
            lines.append("\nno corpus: the last merged go first")
        if p.first_removed:
            lines.append("\nfirst to go: " + "  ".join(repr(decode_bytes_visibly(b)) for b in p.first_removed), style="dim")
        lines.append("\nenter in the directory field: write it · esc: close", style="dim")
        self._say(lines)

    def action_write(self) -> None:
        target = self.query_one("#prune-to", Input).value.replace(",", "").replace("_", "").strip()
        if self._preview is None or not target.isdigit() or int(target) != self._previewed_for:
            self._say(Text("press enter in the first field to see what goes before writing", style="yellow"))
            return
        directory = Path(self.query_one("#prune-out", Input).value.strip() or f"{self._base.name}-pruned").expanduser()
        self._say(Text(f"writing {visible_text(str(directory))}…", style="dim italic"))
        self._write_worker(directory)

    @work(thread=True, exclusive=True, exit_on_error=False, group="prune-write")
    def _write_worker(self, directory: Path) -> None:
        from bpe_engine.surgery.save import save_changed

        p = self._preview
        try:
            save_changed(p.tokenizer, self._base, directory, name=directory.name, operation="prune", id_map=p.id_map)
        except (BpeEngineError, OSError) as exc:
            self.post_message(self.Written(None, f"cannot write {directory}: {exc}"))
            return
        self.post_message(self.Written(directory, None))

    def on_prune_screen_written(self, message: Written) -> None:
        if message.directory is None:
            self._say(Text(visible_text(message.error or ""), style="red"))
            return
        self.app.notify(visible_text(f"Pruned model written to {message.directory} (surgery.json maps old ids to new)"), timeout=6)
        self.dismiss(message.directory)

    def _say(self, text: Text) -> None:
        self.query_one("#prune-preview", Static).update(text)

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["PruneScreen"]
