"""What one training run needs, copied out of the UI (or the CLI) into a frozen, picklable value.

A request is a corpus and a registered trainer's own config (:class:`~bpe_engine.training.bpe.BpeTrainerConfig`,
:class:`~bpe_engine.training.wordpiece.WordPieceTrainerConfig`,
:class:`~bpe_engine.training.unigram.UnigramTrainerConfig`, or a new trainer's). The config is the
one settings model: it checks itself when made (a :class:`~bpe_engine.errors.ConfigError` naming
its ``field``), and each declares what the runner and the app read of it (:class:`TrainerConfig`);
the config's ``model`` names its trainer's registration.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ...choices import ModelName
from ...corpus.block_text import Text
from ...corpus.cut import CorpusWords

if TYPE_CHECKING:
    from ..registry import TrainerSpec


class TrainerConfig(Protocol):
    """What every trainer's config declares."""

    model: ClassVar[ModelName]
    vocab_size: int

    @property
    def byte_level(self) -> bool:
        """Tokens are GPT-2 byte characters (BPE only)."""
        ...

    @property
    def continuing_prefix(self) -> str | None:
        """The prefix of word-inner symbols (WordPiece's ``##``)."""
        ...

    @property
    def front_end(self) -> FrontEnd | None:
        """What cuts the corpus into the words the trainer counts (a pre-tokenizer, or BERT's
        front end); None for a trainer that reads whole lines (Unigram)."""
        ...


class FrontEnd(Protocol):
    """What a run and its stepper read of a config's front end (a
    :class:`~bpe_engine.pretokenizers.PreTokenizer` or :class:`~bpe_engine.wordpiece.front_end.BertFrontEnd`)."""

    @property
    def trusted(self) -> bool:
        """Every pattern it runs is known to run in linear time (else the run goes to a child)."""
        ...

    @property
    def end_of_word_suffix(self) -> str | None: ...

    @property
    def end_of_word(self) -> str: ...


@dataclass(frozen=True)
class TrainingRequest:
    """One run's corpus and trainer config.

    ``stop_after`` and ``throttle`` exist for tests and benchmarks: stop consuming after that
    many steps (the run then stays "in progress"), or sleep that long after each step (a long
    run on a tiny corpus). Both work the same in a thread and in the child process.

    ``text`` is a ``str``, or a :class:`~bpe_engine.corpus.block_text.BlockText` for a big corpus.
    ``words`` is ``text`` already cut by the config's front end, when the caller has it: the app
    cuts the corpus for its facts line as soon as it is opened, and a run given that cut goes
    straight to counting pairs (the cut is about half of training 5 MB). It never decides the
    merges, so it is left out of comparisons and of :meth:`settings`; a cut of another length than
    ``text`` is ignored and the run cuts the text itself.
    """

    text: Text
    config: TrainerConfig
    stop_after: int | None = None
    throttle: float = 0.0
    words: CorpusWords | None = field(default=None, compare=False, repr=False)
    spec: TrainerSpec | None = field(default=None, compare=False, repr=False)
    """The trainer's registration, carried to the child process (:meth:`for_child`): a trainer
    registered at run time trains there too; None: looked up by the config's ``model``."""

    @property
    def model(self) -> ModelName:
        return self.config.model

    @property
    def trainer(self) -> TrainerSpec:
        """The registered trainer of this request's config (registered here if it came with us)."""
        from ...errors import ConfigError
        from ..registry import register, spec_for

        if self.spec is not None:
            try:
                return spec_for(self.spec.name)
            except ConfigError:  # not registered in this process (the child): it is now
                return register(self.spec)
        return spec_for(self.model)

    @property
    def front_end(self) -> FrontEnd | None:
        """The config's front end (None for a trainer that reads lines, Unigram)."""
        return self.config.front_end

    @property
    def trusted(self) -> bool:
        """Whether every pattern the run uses is known to run in linear time (else: a child)."""
        front = self.front_end
        return front is None or bool(front.trusted)

    def cut_words(self) -> CorpusWords | None:
        """The caller's cut of the corpus, when it fits the text (None: cut it here)."""
        words = self.words
        return words if words is not None and words.characters == len(self.text) else None

    def for_child(self) -> TrainingRequest:
        """What the training child is sent: the cut without where each word stands in the corpus
        (the trainer reads words and counts only; the pieces were ~3 x 4 bytes each, 144 MB of
        pickle at 50 MB, and the parent keeps its own cut for the stepper)."""
        words = self.cut_words()
        with_spec = replace(self, spec=self.trainer)
        return with_spec if words is None else replace(with_spec, words=words.without_pieces())

    def settings(self) -> TrainingRequest:
        """The same run without the test hooks and the cut (what decides the result)."""
        return TrainingRequest(self.text, self.config)


__all__ = ["FrontEnd", "TrainerConfig", "TrainingRequest"]
