"""What a run is drawn with, and the stepper it steps through.

A :class:`RunView` is copied out of a request (or a loaded tokenizer) when the run starts: the text
its steps are drawn on, its alphabet, its trainer's registration, where it came from.
:func:`stepper_for` makes the stepper of a started run -- the trainer's own (its registration's
``stepper`` hook: the merge replay over the run's cut for BPE and WordPiece, every line segmented
by the model of step k for Unigram) -- off the UI thread; :class:`StepperInAdvance` builds it
beside the run when the run trains on a cut the app already has.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from bpe_engine.corpus.block_text import Text as CorpusText
from bpe_engine.corpus.cut import CorpusWords
from bpe_engine.errors import BpeEngineError
from bpe_engine.explore.stepper import Stepper
from bpe_engine.explore.train_stepper import TrainStepper
from bpe_engine.training.registry import TrainerSpec, spec_for
from bpe_engine.training.runner import TrainingRequest
from bpe_engine.types import ReplaysMerges

AnyStepper = TrainStepper
"""What the Train tab steps through (the one stepper protocol)."""

REPLAYED = "bpe"
"""A loaded tokenizer's merges are replayed as BPE merges (its steps are ``merge`` steps)."""


@dataclass(frozen=True)
class RunView:
    """How a run's steps are shown: on which text, in which alphabet, by which trainer, from where."""

    text: CorpusText
    spec: TrainerSpec
    byte_level: bool
    end_of_word_suffix: str | None
    continuing_prefix: str | None
    request: TrainingRequest | None  # None when replaying a loaded tokenizer
    label: str
    corpus_label: str = ""
    end_of_word: str = "attached"  # how the pre-tokenizer's </w> joins a word

    @property
    def model(self) -> str:
        return self.spec.name

    @classmethod
    def of_request(cls, request: TrainingRequest, corpus_label: str) -> RunView:
        config, front = request.config, request.front_end
        return cls(
            request.text, request.trainer, config.byte_level, front.end_of_word_suffix if front else None,
            config.continuing_prefix, request, "trained", corpus_label, front.end_of_word if front else "attached",
        )

    @classmethod
    def of_tokenizer(cls, tokenizer: ReplaysMerges, text: CorpusText, label: str, corpus_label: str) -> RunView:
        pre = tokenizer.pre_tokenizer
        return cls(
            text, spec_for(REPLAYED), tokenizer.capabilities.byte_level, pre.end_of_word_suffix, None, None, label, corpus_label,
            pre.end_of_word,
        )


def stepper_for(words: CorpusWords | None, view: RunView) -> AnyStepper:
    """A stepper at step 0 for the run ``view`` shows (its steps are fed by the UI as they come)."""
    if view.request is not None:
        return view.spec.hook("stepper")(view.request.config, view.text, words)
    assert words is not None  # a replay always cuts its corpus
    return Stepper.from_words(  # a loaded tokenizer's merges, on its own pre-tokenizer's cut
        words,
        byte_level=view.byte_level,
        merges=[],
        end_of_word_suffix=view.end_of_word_suffix,
        end_of_word=view.end_of_word,  # type: ignore[arg-type]
        continuing_prefix=view.continuing_prefix,
    )


class StepperInAdvance:
    """The stepper of a run given its cut, built while the run starts rather than after it started.

    Why: a run on the facts line's cut spends ~0.6 s on 10 MB starting the child and counting pairs,
    and building the stepper takes as long again; built after ``Started``, it held back the first
    merges and "done" by that much. The run trains on the very same cut, so the stepper is the one
    ``Started`` would have led to. A daemon thread: quitting never waits for it.
    """

    def __init__(self, words: CorpusWords, view: RunView) -> None:
        self._stepper: AnyStepper | None = None
        self._error: BpeEngineError | None = None
        self._thread = threading.Thread(target=self._build, args=(words, view), name="stepper", daemon=True)
        self._thread.start()

    def _build(self, words: CorpusWords, view: RunView) -> None:
        try:
            self._stepper = stepper_for(words, view)
        except BpeEngineError as exc:
            self._error = exc

    def result(self) -> AnyStepper:
        """The stepper (waiting for it if need be); raises what building it raised."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        stepper, self._stepper = self._stepper, None  # handed over: the UI is its one owner
        assert stepper is not None
        return stepper


__all__ = ["AnyStepper", "RunView", "StepperInAdvance", "stepper_for"]
