"""Opening a corpus, loading a tokenizer to explore, saving the trained one.

A mixin of :class:`~tui.app.ExplorerApp`, kept apart so the app module stays about routing.
Reading, loading and saving all run in worker threads (saving a cl100k-sized tokenizer took 3 s on
the UI thread); the UI only learns the outcome. A corpus file is read by the one text reader
(:func:`bpe_engine.text_files.read_text_file`): the same bytes as on the command line.

Saving can be asked while a run trains: the directory is checked writable at once (not after a
long training) and the save happens when the run finishes.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work

from bpe_engine.display import visible_text
from bpe_engine.errors import BpeEngineError
from bpe_engine.text_files import read_text_file
from bpe_engine.types import Tokenizer

from .screens import PathScreen
from .train.corpus_pane import CorpusPane

if TYPE_CHECKING:  # the mixin is only ever mixed into the App
    from .app import ExplorerApp as _Base
else:
    _Base = object


def unwritable_reason(directory: Path) -> str | None:
    """Why ``directory`` cannot receive a save (None when it can): checked before any work."""
    target = directory.expanduser()
    probe = target
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        return f"{visible_text(str(probe))} is a file, not a directory"
    if not os.access(probe, os.W_OK | os.X_OK):
        return f"{visible_text(str(probe))} is not writable"
    return None


class FileActions(_Base):
    """ctrl+o open corpus, ctrl+l load tokenizer, ctrl+s save tokenizer."""

    _save_after_training: Path | None = None

    # -- open a corpus ---------------------------------------------------------------------------
    def action_open_corpus(self) -> None:
        self.push_screen(PathScreen("Open a text file as the corpus"), self._open_corpus)

    def _open_corpus(self, path: str | None) -> None:
        if path:
            self._read_worker(path)

    @work(thread=True, exclusive=True, exit_on_error=False, group="read")
    def _read_worker(self, path: str) -> None:
        try:
            text = read_text_file(path)
        except BpeEngineError as exc:
            self.call_from_thread(self.notify, str(exc), severity="error", timeout=10)
            return
        self.call_from_thread(self._corpus_opened, path, text)

    def _corpus_opened(self, path: str, text: str) -> None:
        self.query_one(CorpusPane).load(text, Path(path).name)
        self.notify(f"Opened {visible_text(path)} ({len(text):,} characters)", timeout=3)
        view = self.view
        if view is not None and view.request is None and self.tokenizer is not None and not self.training:
            # A loaded tokenizer's merges do not depend on the corpus: show them on the new one
            # (8.2.5). Trained merges belong to their corpus; the retrain offer says it changed.
            self.replay_tokenizer(self.tokenizer, view.label)

    # -- load a tokenizer ------------------------------------------------------------------------
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
        if not tokenizer.capabilities.replays_merges:
            self.notify(f"{visible_text(label)} has no merge list to step through.", severity="error")
            return
        self.sub_title = visible_text(label)
        self.replay_tokenizer(tokenizer, visible_text(label))

    # -- save ------------------------------------------------------------------------------------
    def action_save(self) -> None:
        if self.tokenizer is None and not self.training:
            self.notify("Nothing to save yet: train (ctrl+t) or load a tokenizer (ctrl+l) first.", severity="warning")
            return
        hint = "writes every format" + ("; the run is still training: it is saved when it finishes" if self.training else "")
        self.push_screen(PathScreen("Save the tokenizer into a directory", initial="my-tokenizer", hint=hint), self._save)

    def _save(self, directory: str | None) -> None:
        if not directory:
            return
        target = Path(directory).expanduser()
        why = unwritable_reason(target)
        if why is not None:
            self.notify(f"Cannot save to {visible_text(directory)}: {why}", severity="error", timeout=8)
            return
        if self.training:
            self._save_after_training = target
            self.notify(f"Will save to {visible_text(directory)} when training finishes.", timeout=5)
            return
        if self.tokenizer is not None:
            self.notify(f"Saving to {visible_text(directory)}…", timeout=2)
            self._save_worker(self.tokenizer, target)

    def save_when_finished(self) -> None:
        """Called when a run finishes: carry out a save asked for while it trained."""
        target, self._save_after_training = self._save_after_training, None
        if target is not None and self.tokenizer is not None:
            self._save_worker(self.tokenizer, target)

    @work(thread=True, exclusive=False, exit_on_error=False, group="save")
    def _save_worker(self, tokenizer: Tokenizer, directory: Path) -> None:
        from bpe_engine.formats import save_tokenizer

        try:
            written = save_tokenizer(tokenizer, directory)
        except (BpeEngineError, OSError) as exc:
            message = visible_text(f"Cannot save to {directory}: {exc}")
            self.call_from_thread(self.notify, message, severity="error", timeout=8)
            return
        names = ", ".join(p.name for p in written)
        self.call_from_thread(self.notify, visible_text(f"Saved {names} in {directory}"), timeout=5)
