"""Opening a corpus, loading a tokenizer to explore, saving the trained one.

A mixin of :class:`~tui.app.ExplorerApp`, kept apart so the app module stays about routing.
It relies on the app's ``_begin_run``, ``_replay_worker`` and ``tokenizer`` attributes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import work

from bpe_engine.display import visible_text
from bpe_engine.errors import BpeEngineError
from bpe_engine.types import Tokenizer

from .train.corpus_pane import CorpusPane
from .train.progress_panel import ProgressPanel
from .screens import PathScreen


if TYPE_CHECKING:  # the mixin is only ever mixed into the App
    from textual.app import App

    _Base = App[None]
else:
    _Base = object


class FileActions(_Base):
    """ctrl+o open corpus, ctrl+l load tokenizer, ctrl+s save tokenizer."""

    def action_open_corpus(self) -> None:
        self.push_screen(PathScreen("Open a text file as the corpus"), self._open_corpus)

    def _open_corpus(self, path: str | None) -> None:
        if not path:
            return
        try:
            text = Path(path).expanduser().read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self.notify(visible_text(f"Cannot open {path}: {exc}"), severity="error", timeout=8)
            return
        self.query_one(CorpusPane).load(text, Path(path).name)
        self.notify(visible_text(f"Opened {path} ({len(text):,} characters)"), timeout=3)

    def action_load_tokenizer(self) -> None:
        hint = "a saved directory, vocab.json+merges.txt, tokenizer.json, .tiktoken, or a name like gpt2"
        self.push_screen(PathScreen("Load a tokenizer to explore", hint=hint), self._load_tokenizer)

    def _load_tokenizer(self, spec: str | None) -> None:
        if spec:
            self._load_worker(spec)

    @work(thread=True, exclusive=True, exit_on_error=False, group="load")
    def _load_worker(self, spec: str) -> None:
        from bpe_engine.registry import load_tokenizer

        try:
            tokenizer = load_tokenizer(spec)
        except (BpeEngineError, OSError, ValueError) as exc:
            self.call_from_thread(self.notify, visible_text(f"Cannot load {spec}: {exc}"), severity="error", timeout=8)
            return
        self.call_from_thread(self.explore_tokenizer, tokenizer, spec)

    def explore_tokenizer(self, tokenizer: Tokenizer, label: str) -> None:
        """Fill the merge list from a loaded tokenizer and step through it on the current corpus."""
        if not hasattr(tokenizer, "merges"):
            self.notify(f"{visible_text(label)} has no merge list to step through.", severity="error")
            return
        self.workers.cancel_group(self, "train")
        text = self.query_one(CorpusPane).text
        self._begin_run(bool(getattr(tokenizer, "byte_level", True)), text)
        self._trained = None
        self.sub_title = visible_text(label)
        self.tokenizer = tokenizer
        self.query_one(ProgressPanel).show_counting()
        self._replay_worker(tokenizer, text, self.run_id)

    def action_save(self) -> None:
        if self.tokenizer is None:
            self.notify("Nothing to save yet: let training finish (ctrl+t) first.", severity="warning")
            return
        self.push_screen(
            PathScreen("Save the tokenizer into a directory", initial="my-tokenizer", hint="writes every format"),
            self._save,
        )

    def _save(self, directory: str | None) -> None:
        if not directory or self.tokenizer is None:
            return
        from bpe_engine.formats import save_tokenizer

        try:
            written = save_tokenizer(self.tokenizer, Path(directory).expanduser())
        except (BpeEngineError, OSError) as exc:
            self.notify(visible_text(f"Cannot save to {directory}: {exc}"), severity="error", timeout=8)
            return
        names = ", ".join(p.name for p in written)
        self.notify(visible_text(f"Saved {names} in {directory}"), timeout=5)
