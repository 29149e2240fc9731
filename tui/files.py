"""Opening a corpus, loading a tokenizer to explore, saving the trained one: the app's file routes.

Reading, loading and saving all run in worker threads (saving a cl100k-sized tokenizer took 3 s on
the UI thread); the UI only learns the outcome. A corpus file is read by the one text reader
(:func:`bpe_engine.core.text_files.read_text_blocks`: the same bytes and errors as the command line's
:func:`~bpe_engine.core.text_files.read_text_file`, held in blocks).

Saving can be asked while a run trains: the directory is checked writable at once (not after a
long training) and the save happens when the run finishes (the Train pane says so).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bpe_engine.core.block_text import Text
from bpe_engine.core.text_files import read_text_blocks
from bpe_engine.display import visible_text
from bpe_engine.errors import BpeEngineError
from bpe_engine.training.steps import MergeStep
from bpe_engine.types import Tokenizer

from .screens import PathScreen

if TYPE_CHECKING:
    from .app import ExplorerApp


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


class Files:
    """ctrl+o opens a corpus, ctrl+l loads a tokenizer, ctrl+s saves: dialogs, workers, outcomes."""

    def __init__(self, app: ExplorerApp) -> None:
        self.app = app
        self.save_after_training: Path | None = None

    # -- open a corpus -----------------------------------------------------------------------------
    def open_corpus(self) -> None:
        self.app.push_screen(PathScreen("Open a text file as the corpus"), lambda path: self._read(path) if path else None)

    def _read(self, path: str) -> None:
        app = self.app

        def work() -> None:
            try:
                text = read_text_blocks(path)
            except BpeEngineError as exc:
                app.call_from_thread(app.notify, str(exc), severity="error", timeout=10)
                return
            app.call_from_thread(self._opened, path, text)

        app.run_worker(work, thread=True, exclusive=True, exit_on_error=False, group="read", description="reading a corpus")

    def _opened(self, path: str, text: Text) -> None:
        self.app.train_pane.open_corpus(text, Path(path).name)
        self.app.notify(f"Opened {visible_text(path)} ({len(text):,} characters)", timeout=3)

    # -- load a tokenizer --------------------------------------------------------------------------
    def load_tokenizer(self) -> None:
        hint = "a saved directory, vocab.json+merges.txt, tokenizer.json, .tiktoken, or a name like gpt2"
        self.app.push_screen(PathScreen("Load a tokenizer to explore", hint=hint), lambda spec: self._load(spec) if spec else None)

    def _load(self, spec: str) -> None:
        app = self.app

        def work() -> None:
            from bpe_engine.registry import load_tokenizer

            try:
                tokenizer = load_tokenizer(spec)
            except (BpeEngineError, OSError, ValueError) as exc:
                app.call_from_thread(app.notify, visible_text(f"Cannot load {spec}: {exc}"), severity="error", timeout=8)
                return
            app.call_from_thread(app.train_pane.explore, tokenizer, spec)

        app.run_worker(work, thread=True, exclusive=True, exit_on_error=False, group="load", description="loading a tokenizer")

    # -- save --------------------------------------------------------------------------------------
    def save(self) -> None:
        pane = self.app.train_pane
        if pane.tokenizer is None and not pane.training:
            self.app.notify("Nothing to save yet: train (ctrl+t) or load a tokenizer (ctrl+l) first.", severity="warning")
            return
        hint = "writes every format" + ("; the run is still training: it is saved when it finishes" if pane.training else "")
        self.app.push_screen(PathScreen("Save the tokenizer into a directory", initial="my-tokenizer", hint=hint), self._save_to)

    def _save_to(self, directory: str | None) -> None:
        if not directory:
            return
        app, pane = self.app, self.app.train_pane
        target = Path(directory).expanduser()
        why = unwritable_reason(target)
        if why is not None:
            app.notify(f"Cannot save to {visible_text(directory)}: {why}", severity="error", timeout=8)
            return
        if pane.training:
            self.save_after_training = target
            app.notify(f"Will save to {visible_text(directory)} when training finishes.", timeout=5)
            return
        if pane.tokenizer is not None:
            app.notify(f"Saving to {visible_text(directory)}…", timeout=2)
            self._write(pane.tokenizer, target, pane.trained_merges(), pane.model_state)

    def run_finished(self, tokenizer: Tokenizer) -> None:
        """A run finished: carry out a save asked for while it trained."""
        target, self.save_after_training = self.save_after_training, None
        if target is not None:
            self._write(tokenizer, target, self.app.train_pane.trained_merges(), self.app.train_pane.model_state)

    def run_cancelled(self) -> None:
        if self.save_after_training is not None:
            self.save_after_training = None
            self.app.notify("The save waiting for this run is dropped: it was cancelled.", severity="warning")

    def _write(self, tokenizer: Tokenizer, directory: Path, steps: Sequence[MergeStep] | None, state: Any = None) -> None:
        """Save in a worker; a trained model keeps its merges' counts and whys (training.jsonl). A run
        trained here is written by its trainer's own save hook (``state``: the run's recipe), as
        ``bpe-explorer train`` writes it -- a model extended from a base gets the base's formats and
        the note on its new ids; a loaded tokenizer is saved in every format it fits."""
        app = self.app

        def work() -> None:
            from bpe_engine.formats import save_tokenizer

            notes: list[str] = []
            try:
                if state is not None:
                    from bpe_engine.training.registry import spec_for

                    saved = spec_for(state.model).hook("save")(state, directory, directory.name, list(steps or ()))
                    written, notes = saved.written, list(saved.notes)
                else:
                    written = save_tokenizer(tokenizer, directory, steps=steps, name=directory.name)
            except (BpeEngineError, OSError) as exc:
                app.call_from_thread(app.notify, visible_text(f"Cannot save to {directory}: {exc}"), severity="error", timeout=8)
                return
            names = ", ".join(p.name for p in written)
            app.call_from_thread(app.notify, visible_text(f"Saved {names} in {directory}"), timeout=5)
            for note in notes:
                app.call_from_thread(app.notify, visible_text(note), timeout=8)

        app.run_worker(work, thread=True, exclusive=False, exit_on_error=False, group="save", description="saving the tokenizer")


__all__ = ["Files", "unwritable_reason"]
