"""Training and replaying runs in the app: start, cancel, and the runner's events turned into views.

A mixin of :class:`~tui.app.ExplorerApp`. The worker threads forward the events of
:func:`bpe_engine.training.runner.run_training` (or :func:`replay_events`) tagged with a run id.
One thing is built in the worker: the stepper of a :class:`Started` run, from the run's frozen
:class:`~bpe_engine.corpus.cut.CorpusWords` (~0.5 s of pure Python on 5 MB, which on the UI
thread froze every key and delayed "done"); for a run on the facts line's cut it is built
beside the run from its start (:class:`_StepperInAdvance`). It is handed over with the event and
the worker keeps no reference, so it still has one owner at a time. The merge list is an immutable
:class:`~tui.train.merge_log.MergeLog` made on the UI thread.

The last good run stays explorable until a new run has *started* (its corpus is cut and the
trainer accepted the settings): a refused or cancelled run never wipes it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from textual import work
from textual.widgets import Input, TextArea
from textual.worker import get_current_worker

from bpe_engine.corpus.cut import CorpusWords
from bpe_engine.display import visible_text
from bpe_engine.errors import BpeEngineError
from bpe_engine.explore.stepper import Stepper
from bpe_engine.pretokenizers import EndOfWord
from bpe_engine.training.runner import (
    Backend,
    Cancelled,
    Counting,
    Event,
    Failed,
    Finished,
    Merges,
    Started,
    TrainingRequest,
    replay_events,
    run_training,
)
from bpe_engine.types import Tokenizer

from ..gc_pause import collector_paused
from ..messages import TrainingEvent
from .corpus_pane import CorpusPane
from .derivation_view import DerivationView
from .merge_log import MergeLog
from .merge_table import MergeTable
from .progress_panel import ProgressPanel
from .segmented_view import SegmentedView
from .settings_form import SettingsForm

if TYPE_CHECKING:  # the mixin is only ever mixed into the App
    from ..app import ExplorerApp as _Base
else:
    _Base = object


@dataclass(frozen=True)
class RunView:
    """How a run's merges are shown: on which text, in which alphabet, from where."""

    text: str
    byte_level: bool
    end_of_word_suffix: str | None
    continuing_prefix: str | None
    request: TrainingRequest | None  # None when replaying a loaded tokenizer
    label: str
    corpus_label: str = ""
    end_of_word: EndOfWord = "attached"  # how the pre-tokenizer's </w> joins a word (its convention)


class TrainingActions(_Base):
    """ctrl+t trains, esc cancels; the runner's events become the merge list, stepper and state."""

    # -- starting --------------------------------------------------------------------------------
    def action_train(self) -> None:
        """Start (or restart) training with the form's settings; a running run is superseded.

        ctrl+t is an app key: it runs as soon as it arrives, while keys typed just before it may
        still wait in the focused field's queue (a field only applies its keys in its own turn).
        Read then, the form gave the old vocab -- "1000" trained while the field showed the "600"
        typed a moment before (1 ctrl+t in 25 in a pty test right after typing). So a key typed
        into a text field first lets that field apply what it was given.
        """
        focused = self.focused
        if isinstance(focused, (Input, TextArea)):
            focused.call_later(self._train_now)
        else:
            self._train_now()

    def _train_now(self) -> None:
        form = self.query_one(SettingsForm)
        text = self.query_one(CorpusPane).text
        if not text.strip():
            self.notify("The corpus is empty: type or paste some text, or open a file (ctrl+o).", severity="error")
            return
        request = form.request_for(text)
        if request is None:
            self.notify("Fix the settings marked in red first.", severity="error")
            return
        if self.stop_after is not None or self.throttle:
            request = replace(request, stop_after=self.stop_after, throttle=self.throttle)
        cut = self._corpus_cut
        if cut is not None:  # the facts line's cut, when it is of this text and pre-tokenizer
            request = replace(request, words=cut.words_for(text, request.pre_tokenizer))
        view = RunView(
            text, request.effective_byte_level, request.pre_tokenizer.end_of_word_suffix,
            request.continuing_prefix, request, "trained", self.query_one(CorpusPane).source,
            request.pre_tokenizer.end_of_word,
        )
        self.sub_title = ""  # the header named a loaded tokenizer: this run replaces it
        self._start_run(view)
        self._train_worker(request, view, self.run_id, self.backend)

    def replay_tokenizer(self, tokenizer: Tokenizer, label: str) -> None:
        """Step through a loaded tokenizer's merges on the current corpus (again after ctrl+o)."""
        corpus = self.query_one(CorpusPane)
        pre = tokenizer.pre_tokenizer
        text = corpus.text
        view = RunView(
            text, tokenizer.capabilities.byte_level, pre.end_of_word_suffix, None, None, label, corpus.source,
            pre.end_of_word,
        )
        self._start_run(view)
        self._replay_worker(tokenizer, view, self.run_id)

    def _start_run(self, view: RunView) -> None:
        self.action_pause()
        self.run_id += 1
        self.training = True
        self._starting = view
        self.query_one(ProgressPanel).show_counting()

    # description: Textual would otherwise repr the arguments (a 5 MB corpus: ~0.15 s on the UI thread)
    @work(thread=True, exclusive=True, exit_on_error=False, group="train", description="training run")
    def _train_worker(self, request: TrainingRequest, view: RunView, run_id: int, backend: Backend) -> None:
        worker = get_current_worker()
        with collector_paused():
            cut = request.cut_words()
            early = _StepperInAdvance(cut, view) if cut is not None else None
            events = run_training(request, backend=backend, cancelled=lambda: worker.is_cancelled, clock=self.clock)
            self._forward(events, view, run_id, early)

    @work(thread=True, exclusive=True, exit_on_error=False, group="train", description="replaying merges")
    def _replay_worker(self, tokenizer: Tokenizer, view: RunView, run_id: int) -> None:
        worker = get_current_worker()
        with collector_paused():
            events = replay_events(tokenizer, view.text, cancelled=lambda: worker.is_cancelled, clock=self.clock)
            self._forward(events, view, run_id)

    def _forward(
        self, events: Iterable[Event], view: RunView, run_id: int, early: _StepperInAdvance | None = None
    ) -> None:
        """Post each event; a :class:`Started` goes with the stepper built here from its words (or
        built in ``early`` from the same cut while the run started)."""
        for event in events:
            stepper = None
            if isinstance(event, Started):
                try:
                    stepper = early.result() if early is not None else _stepper_for(event.words, view)
                except BpeEngineError as exc:  # e.g. more distinct tokens than a stepper can hold
                    self.post_message(TrainingEvent(run_id, Failed(str(exc))))
                    return
            self.post_message(TrainingEvent(run_id, event, stepper))

    def action_cancel(self) -> None:
        """Stop the running training; merges already received stay explorable."""
        if not self.training:
            return
        self.workers.cancel_group(self, "train")
        self.run_id += 1  # events already queued belong to a dead run now
        self.training = False
        if self._save_after_training is not None:
            self._save_after_training = None
            self.notify("The save waiting for this run is dropped: it was cancelled.", severity="warning")
        if self._starting is not None:  # not started yet: the previous run is still what is shown
            self._starting = None
            self.query_one(ProgressPanel).show_cancelled(None)
            return
        self.query_one(ProgressPanel).show_cancelled(self.stepper.available if self.stepper else 0)
        self._show_step()
        self._push_state()

    # -- events ----------------------------------------------------------------------------------
    def on_training_event(self, message: TrainingEvent) -> None:
        if message.run_id != self.run_id:
            return
        event = message.event
        if isinstance(event, Counting):
            if self._starting is not None:
                self.query_one(ProgressPanel).show_counting(event.done, event.total)
        elif isinstance(event, Started):
            assert message.stepper is not None  # the worker builds it with every Started
            self._on_started(event, message.stepper)
        elif isinstance(event, Merges):
            self._on_merges(event)
        elif isinstance(event, Finished):
            self._on_finished(event)
        elif isinstance(event, Failed):
            self._on_failed(event)
        elif isinstance(event, Cancelled):
            self.training = False

    def _on_started(self, event: Started, stepper: Stepper) -> None:
        view = self._starting
        if view is None:
            return
        if event.target == 0 and view.request is not None:
            self._refuse(f"must be above the alphabet ({event.alphabet:,} symbols): nothing to merge")
            return
        self._starting = None
        self.view = view
        self._trained = view.request.settings() if view.request is not None else None
        self._target = event.target
        self.merge_log = MergeLog()
        stepper.merges = self.merge_log
        self.stepper = stepper
        self.tokenizer = None
        self._notes_shown = set(event.notes)
        self.query_one(MergeTable).reset(byte_level=view.byte_level, alphabet=event.alphabet)
        self.query_one(SegmentedView).corpus_label = f"corpus at step k: {view.corpus_label}"
        self.query_one(DerivationView).show_none()
        self.query_one(ProgressPanel).show_started(event.target)
        self.query_one(SettingsForm).show_error("vocab", "")
        for note in event.notes:
            self.notify(visible_text(note), timeout=6)
        self.current_step = 0
        self._show_step()
        self._push_state()

    def _refuse(self, why: str) -> None:
        """A run the trainer would make nothing of: say so at the field, keep the last good run."""
        self.workers.cancel_group(self, "train")
        self.run_id += 1
        self.training = False
        self._starting = None
        self.query_one(SettingsForm).show_error("vocab", why)
        self.query_one(ProgressPanel).show_failed(f"vocab size {why}; the previous merges are kept")

    def _on_merges(self, event: Merges) -> None:
        if self.stepper is None:
            return
        self.merge_log = self.merge_log.extended(event.steps)
        self.stepper.merges = self.merge_log
        self.query_one(MergeTable).add_steps(event.steps)  # cheap: the list draws only visible rows
        self.query_one(ProgressPanel).show_progress(event.done, max(event.target, event.done), event.rate)
        if self.stepper.step == 0 and len(self.merge_log) == len(event.steps):
            self._show_step()  # first merges: draw the corpus at step 0 once
        else:
            self.query_one(SegmentedView).show_status(
                self.stepper, self.view.text, byte_level=self.view.byte_level, playing=self._playing is not None
            )

    def _on_finished(self, event: Finished) -> None:
        if self._starting is not None:  # finished before it started: nothing of it is shown
            return
        self.training = False
        self.tokenizer = event.tokenizer
        for note in event.notes:
            if note not in self._notes_shown:
                self.notify(visible_text(note), timeout=6)
        panel = self.query_one(ProgressPanel)
        if self.view.request is None:
            panel.show_loaded(self.view.label, event.done)
        else:
            panel.show_finished(event.done, self._target, event.seconds)
        self._push_state()
        self.save_when_finished()

    def _on_failed(self, event: Failed) -> None:
        self.training = False
        kept = self._starting is not None and self.stepper is not None
        self._starting = None
        self.query_one(ProgressPanel).show_failed(
            event.message + (" (the previous merges are kept)" if kept else "")
        )
        if "vocab" in event.message:
            self.query_one(SettingsForm).show_error("vocab", event.message)
        self.notify(visible_text(event.message), severity="error", timeout=8)


def _stepper_for(words: CorpusWords, view: RunView) -> Stepper:
    """A stepper at step 0 over ``words``, in the run's alphabet (its merges are set by the UI)."""
    return Stepper.from_words(
        words,
        byte_level=view.byte_level,
        merges=MergeLog(),
        end_of_word_suffix=view.end_of_word_suffix,
        end_of_word=view.end_of_word,
        continuing_prefix=view.continuing_prefix,
    )


class _StepperInAdvance:
    """The stepper of a run given its cut, built while the run starts rather than after it started.

    Why: a run on the facts line's cut spends ~0.6 s on 10 MB starting the child and counting pairs,
    and building the stepper takes as long again; built after :class:`Started`, it held back the
    first merges and "done" by that much. The run trains on the very same cut, so the stepper is
    the one :class:`Started` would have led to. A daemon thread: quitting never waits for it.
    """

    def __init__(self, words: CorpusWords, view: RunView) -> None:
        self._stepper: Stepper | None = None
        self._error: BpeEngineError | None = None
        self._thread = threading.Thread(target=self._build, args=(words, view), name="stepper", daemon=True)
        self._thread.start()

    def _build(self, words: CorpusWords, view: RunView) -> None:
        try:
            self._stepper = _stepper_for(words, view)
        except BpeEngineError as exc:
            self._error = exc

    def result(self) -> Stepper:
        """The stepper (waiting for it if need be); raises what building it raised."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        stepper, self._stepper = self._stepper, None  # handed over: the UI is its one owner
        assert stepper is not None
        return stepper
