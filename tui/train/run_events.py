"""A run's life in the Train pane: start it, forward its events, turn them into views, cancel it.

The worker forwards the events of the pane's runner (or of a loaded tokenizer's replay) tagged
with a run id; the pane drops any other id, so a cancelled or superseded run never touches the
screen. One thing is built in the worker: the stepper of a started run (~0.5 s of pure Python on
5 MB, which on the UI thread froze every key); it is handed over with the event and the worker
keeps no reference. A step the stepper must prepare (a Unigram step's model) is prepared in a
worker too, when it is shown first. Nothing here knows a trainer by name: the run's registration
says what it counts and whether its target is a vocabulary size.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from textual.worker import get_current_worker

from bpe_engine.choices import PRE_TOKENIZERS, label_of, values
from bpe_engine.core.block_text import blank
from bpe_engine.display import counted, visible_text
from bpe_engine.errors import BpeEngineError
from bpe_engine.explore.diff import changed_settings, diff_tokenizers
from bpe_engine.training.runner import (
    Cancelled,
    Counting,
    Event,
    Failed,
    Finished,
    Started,
    Steps,
    TrainingRequest,
    replay_events,
)
from bpe_engine.training.registry import model_choices, names
from bpe_engine.types import ReplaysMerges, Tokenizer

from ..gc_pause import collector_paused
from ..messages import StepReady, TrainingEvent
from .corpus_pane import CorpusPane
from .progress_panel import ProgressPanel
from .runs import REPLAYED, AnyStepper, RunView, StepperInAdvance, stepper_for
from .segmented_view import SegmentedView
from .settings_form import SettingsForm
from .step_detail import StepDetail
from .step_log import StepLog
from .step_table import StepTable

if TYPE_CHECKING:
    from .run_host import RunHost


def settings_of(tokenizer: ReplaysMerges) -> dict[str, str]:
    """The form's fields for a loaded BPE tokenizer: what the form can say of it (a pipeline's own
    pre-tokenizer is no choice of the form's, and is left as it is)."""
    settings = {
        "model": REPLAYED,
        "level": "byte" if tokenizer.capabilities.byte_level else "char",
        "vocab": str(tokenizer.vocab_size),
        "unk": tokenizer.unk_token or "",
    }
    name = tokenizer.pre_tokenizer.name
    if name in values(PRE_TOKENIZERS):
        settings["pretok"] = name
    return settings


def cannot_replay(tokenizer: Tokenizer, label: str) -> str:
    """What to do with a loaded tokenizer whose training cannot be replayed on the corpus: a
    Unigram or WordPiece model keeps its final vocabulary only, not the steps that made it."""
    family = tokenizer.capabilities.family
    name = label_of(model_choices(), family)  # the form's own name for the model
    kind = "a WordPiece vocabulary" if family == "wordpiece" else f"a {name} model"
    trainable = family in names()
    retrain = f"; to watch one being made, choose {name} in the form and press ctrl+t" if trainable else ""
    return (
        f"{label} is {kind}: it keeps its final vocabulary, not the training steps, so there is nothing to "
        f"replay here. Inspect (f3, m) and Compare (f4, a) load it by its path{retrain}."
    )


class RunEvents:
    """Starts and ends the runs of one pane and applies their events to it."""

    def __init__(self, pane: RunHost) -> None:
        self.pane = pane
        self._starting: RunView | None = None  # a run that has not started yet
        self.trained: TrainingRequest | None = None  # the settings of the run shown (the retrain offer compares)
        self._notes_shown: set[str] = set()
        self._target = 0
        self._asked = 0.0  # when the run was asked for (ctrl+t): "done" says how long the user waited
        self._previous: tuple[TrainingRequest, Tokenizer] | None = None  # the last finished run (the rule lab)

    # -- starting ----------------------------------------------------------------------------------
    def train_now(self) -> None:
        pane = self.pane
        text = pane.corpus_pane.text
        if blank(text):
            pane.notify("The corpus is empty: type or paste some text, or open a file (ctrl+o).", severity="error")
            return
        request = pane.settings_form.request_for(text)
        if request is None:
            pane.notify("Fix the settings marked in red first.", severity="error")
            return
        cut = pane.corpus_cut
        if cut is not None and request.front_end is not None:  # the facts line's cut, if of this text and front end
            request = replace(request, words=cut.words_for(text, request.front_end))
        view = RunView.of_request(request, pane.corpus_pane.source)
        words = request.cut_words()
        pane.set_header("")  # the header named a loaded tokenizer: this run replaces it
        run_id = self._start(view)
        early = StepperInAdvance(words, view) if words is not None else None
        runner = pane.runner

        def work() -> None:
            worker = get_current_worker()
            with collector_paused():
                self._forward(runner(request, lambda: worker.is_cancelled), view, run_id, early)

        pane.start_worker(work, group="train", description="training run")

    def replay(self, tokenizer: Tokenizer, label: str) -> None:
        """Step through a loaded tokenizer's merges on the current corpus."""
        pane = self.pane
        if not tokenizer.capabilities.replays_merges:
            pane.notify(cannot_replay(tokenizer, visible_text(label)), severity="warning", timeout=8)
            return
        merges_tokenizer: ReplaysMerges = tokenizer  # type: ignore[assignment]  # declared by replays_merges
        corpus = pane.corpus_pane
        view = RunView.of_tokenizer(merges_tokenizer, corpus.text, visible_text(label), corpus.source)
        pane.set_header(visible_text(label))
        pane.settings_form.show_settings(settings_of(merges_tokenizer))
        run_id = self._start(view)

        def work() -> None:
            from bpe_engine.formats.training_log import saved_steps

            worker = get_current_worker()
            with collector_paused():
                try:  # a directory we saved keeps each step's why: the replay shows it where the corpus is the same
                    saved = saved_steps(label, merges_tokenizer.vocab)
                except BpeEngineError:
                    saved = None  # a damaged log costs the why, never the model
                events = replay_events(merges_tokenizer, view.text, cancelled=lambda: worker.is_cancelled, saved=saved)
                self._forward(events, view, run_id)

        pane.start_worker(work, group="train", description="replaying merges")

    def _start(self, view: RunView) -> int:
        pane = self.pane
        pane.pause()
        pane.run_id += 1
        pane.training = True
        pane.bindings_changed()  # "esc Cancel" follows the run
        self._starting = view
        self._asked = pane.clock()
        pane.progress_panel.show_counting()
        return pane.run_id

    def _forward(self, events: Iterable[Event], view: RunView, run_id: int, early: StepperInAdvance | None = None) -> None:
        """Post each event; a :class:`Started` goes with the stepper built here from its words (or
        built in ``early`` from the same cut while the run started)."""
        post = self.pane.post_message
        for event in events:
            stepper = None
            if isinstance(event, Started):
                try:
                    stepper = early.result() if early is not None else stepper_for(event.words, view)
                except BpeEngineError as exc:  # e.g. more distinct tokens than a stepper can hold
                    post(TrainingEvent(run_id, Failed(str(exc))))
                    return
            post(TrainingEvent(run_id, event, stepper))

    def cancel(self) -> None:
        """Stop the running training; steps already received stay explorable."""
        pane = self.pane
        if not pane.training:
            return
        pane.cancel_workers("train")
        pane.run_id += 1  # events already queued belong to a dead run now
        self._stop()
        if self._starting is not None:  # not started yet: the previous run is still what is shown
            self._starting = None
            pane.progress_panel.show_cancelled(None)
            return
        unit = pane.view.spec.unit if pane.view is not None else "merges"
        pane.progress_panel.show_cancelled(pane.stepper.available if pane.stepper else 0, unit)
        pane.show_step()
        pane.changed()

    def _stop(self) -> None:
        self.pane.training = False
        self.pane.bindings_changed()

    # -- events ------------------------------------------------------------------------------------
    def handle(self, message: TrainingEvent) -> None:
        pane = self.pane
        if message.run_id != pane.run_id:
            return
        event = message.event
        if isinstance(event, Counting):
            if self._starting is not None:
                pane.progress_panel.show_counting(event.done, event.total)
        elif isinstance(event, Started):
            assert message.stepper is not None  # the worker builds it with every Started
            self._started(event, message.stepper)
        elif isinstance(event, Steps):
            self._steps(event)
        elif isinstance(event, Finished):
            self._finished(event)
        elif isinstance(event, Failed):
            self._failed(event)
        elif isinstance(event, Cancelled):
            self._stop()

    def _started(self, event: Started, stepper: AnyStepper) -> None:
        pane, view = self.pane, self._starting
        if view is None:
            return
        if event.target == 0 and view.request is not None and view.spec.targets_vocabulary:
            self._refuse(f"must be above the alphabet ({event.alphabet:,} symbols): nothing to merge")
            return
        self._starting = None
        pane.view = view
        self.trained = view.request.settings() if view.request is not None else None
        self._target = event.target
        pane.step_log = StepLog()
        pane.stepper = stepper
        pane.tokenizer = None
        self._notes_shown = set(event.notes)
        pane.step_table.reset(spec=view.spec, byte_level=view.byte_level, alphabet=event.alphabet or None)
        pane.segmented_view.corpus_label = f"corpus at step k: {view.corpus_label}"
        pane.step_detail.show_none()
        pane.progress_panel.show_started(event.target, view.spec.unit)
        pane.settings_form.show_error("vocab", "")
        for note in event.notes:
            pane.notify(visible_text(note), timeout=6)
        pane.current_step = 0
        pane.show_step()
        pane.changed()

    def _refuse(self, why: str) -> None:
        """A run the trainer would make nothing of: say so at the field, keep the last good run."""
        pane = self.pane
        pane.cancel_workers("train")
        pane.run_id += 1
        self._stop()
        self._starting = None
        pane.settings_form.show_error("vocab", why)
        pane.progress_panel.show_failed(f"vocab size {why}; the previous steps are kept")

    def _steps(self, event: Steps) -> None:
        pane, stepper = self.pane, self.pane.stepper
        if stepper is None or pane.view is None:
            return
        first = not pane.step_log
        pane.step_log = pane.step_log.extended(event.steps)
        stepper.feed(event.steps)
        pane.step_table.add_steps(event.steps)  # cheap: the list draws only visible rows
        pane.progress_panel.show_progress(event.done, max(event.target, event.done), event.rate, pane.view.spec.unit)
        if stepper.step == 0 and first:
            pane.show_step()  # first steps: draw the corpus at step 0 once
        else:
            pane.segmented_view.show_status(stepper, pane.view.text, byte_level=pane.view.byte_level, playing=pane.playing)

    def _finished(self, event: Finished) -> None:
        pane = self.pane
        if self._starting is not None:  # finished before it started: nothing of it is shown
            return
        self._stop()
        pane.tokenizer = event.tokenizer
        pane.model_state = event.model
        for note in event.notes:
            if note not in self._notes_shown:
                pane.notify(visible_text(note), timeout=6)
        view, panel = pane.view, pane.progress_panel
        assert view is not None
        if view.request is None:
            panel.show_loaded(view.label, event.done)
        else:
            panel.show_finished(
                event.done, self._target, event.seconds, view.spec.unit, waited=pane.clock() - self._asked,
                exact_target=view.spec.targets_vocabulary,
            )
            if event.tokenizer is not None:
                panel.show_comparison(self._against_previous(view.request, event.tokenizer))
                self._previous = (view.request.settings(), event.tokenizer)
        pane.show_step()
        pane.changed()
        if event.tokenizer is not None:
            pane.run_finished(event.tokenizer)

    def _failed(self, event: Failed) -> None:
        pane = self.pane
        self._stop()
        kept = self._starting is not None and pane.stepper is not None
        self._starting = None
        pane.progress_panel.show_failed(event.message + (" (the previous steps are kept)" if kept else ""))
        if event.field is not None:
            form = pane.settings_form
            form.show_error(form.widget_of(event.field), event.message)
        pane.notify(visible_text(event.message), severity="error", timeout=8)

    def _against_previous(self, request: TrainingRequest, tokenizer: Tokenizer) -> str:
        """The rule lab: what this run's settings changed against the previous run on the same
        corpus -- where the merge lists part, how many ranks differ, the tokens each has alone."""
        if self._previous is None:
            return ""
        earlier, earlier_tokenizer = self._previous
        changed = changed_settings(earlier.config, request.config)
        if earlier.text != request.text or not changed:
            return ""
        diff = diff_tokenizers(earlier_tokenizer, tokenizer)
        parts = [f"vs the previous run ({'; '.join(changed)}):"]
        if diff.merges is not None:
            m = diff.merges
            parts.append("same merges" if m.same else
                         f"merges part at merge {m.first_difference:,}, {m.ranks_differ:,} ranks differ" if m.first_difference
                         else "merges agree where both have them")
        parts.append(f"{counted(diff.count_only_b, 'token')} only in this run, {diff.count_only_a:,} only in the previous")
        return " ".join(parts[:1]) + " " + "; ".join(parts[1:])

    # -- the retrain offer -------------------------------------------------------------------------
    def check_stale(self) -> None:
        if self.trained is None:
            return
        pane = self.pane
        current = pane.settings_form.request_for(pane.corpus_pane.text, quiet=True)
        same = current is not None and current.settings() == self.trained
        pane.progress_panel.offer_retrain(not same)

    # -- a step the stepper prepares first (a Unigram step's model) --------------------------------
    def prepare(self, stepper: AnyStepper) -> None:
        """Prepare the stepper's step in a worker; the step is drawn when it is ready."""
        pane, step = self.pane, stepper.step

        def work() -> None:
            stepper.prepare()
            pane.post_message(StepReady(stepper, step))

        pane.start_worker(work, group="step-model", description="step model")


__all__ = ["RunEvents"]
