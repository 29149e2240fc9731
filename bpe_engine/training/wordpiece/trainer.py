"""WordPiece training, one merge at a time: by frequency (HF's ``WordPieceTrainer``) or by score.

``config.merge_by`` picks the merge rule:

* ``"count"`` (the default) -- :mod:`.by_count`: the most frequent pair, Hugging Face's
  ``WordPieceTrainer`` exactly (it is HF's BPE trainer with a ``##`` prefix). This is how BERT
  vocabularies are made: the corpus's frequent words become tokens first.
* ``"score"`` -- :mod:`.by_score`: the pair with the highest count(ab) / (count(a) * count(b)),
  the likelihood score the Hugging Face course teaches. It is there to learn from: it favours rare
  pairs, so on real text frequent words may stay split while the vocabulary fills with rare pieces.

Either way, when training ends the vocabulary is checked against the corpus
(:mod:`.vocabulary_health`): the notes warn when frequent words are not single tokens or most of the
vocabulary never occurs when the corpus is encoded.

The config, the alphabet and the starting vocabulary of the score rule live in :mod:`.setup`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ...corpus import WordCounts
from ..steps import MergeStep
from ..stepwise import StepwiseTraining
from .by_count import CountMerges
from .by_score import ScoreMerges
from .setup import (
    WordPieceTrainerConfig,
    count_bert_words,
    initial_state,
    merged_token,
    word_counts_for,
)
from .vocabulary_health import vocabulary_warnings

if TYPE_CHECKING:  # pragma: no cover
    from ...wordpiece.model import WordPieceTokenizer

__all__ = [
    "WordPieceTrainerConfig",
    "WordPieceTraining",
    "count_bert_words",
    "initial_state",
    "merged_token",
    "train_wordpiece",
    "word_counts_for",
    "wordpiece_tokenizer",
]


def train_wordpiece(
    corpus: WordCounts | Mapping[str, int] | Iterable[str], config: WordPieceTrainerConfig | None = None, *, name: str | None = None
) -> WordPieceTokenizer:
    """Train to the end and return the tokenizer (texts are counted with the config's front end)."""
    training = WordPieceTraining(corpus, config or WordPieceTrainerConfig())
    for _ in training.steps():
        pass
    return training.tokenizer(name)


class WordPieceTraining(StepwiseTraining):
    """One training run, advanced one merge at a time by :meth:`steps` (a UI can stop anywhere).

    Mirrors :class:`bpe_engine.training.bpe.BpeTraining`: ``vocab``, ``merges``, ``notes``,
    ``target_merges``, ``finished`` and :meth:`tokenizer` always reflect the merges made so far.
    """

    def __init__(self, corpus: WordCounts | Mapping[str, int] | Iterable[str], config: WordPieceTrainerConfig | None = None) -> None:
        self.config = config or WordPieceTrainerConfig()
        self._word_counts = word_counts_for(corpus, self.config)
        rule = CountMerges if self.config.merge_by == "count" else ScoreMerges
        self._merges = rule(self._word_counts, self.config)
        self.notes: list[str] = list(self._merges.notes)
        self.merges: list[tuple[str, str]] = []
        self.steps_done: list[MergeStep] = []
        self._finished = False
        self._initial_size = self._merges.initial_size

    # -- public API ------------------------------------------------------------------------------
    @property
    def vocab(self) -> dict[str, int]:
        """Token -> id for the merges made so far (a copy)."""
        return dict(self._merges.ids)

    @property
    def alphabet(self) -> tuple[str, ...]:
        """The starting symbols after the specials (``c`` and ``##c`` forms), in id order."""
        return self._merges.alphabet

    def _record(self, step: MergeStep) -> None:
        self.steps_done.append(step)
        self.merges.append((step.left, step.right))

    def tokenizer(self, name: str | None = None) -> WordPieceTokenizer:
        """A tokenizer over the vocabulary so far, with the front end the training used."""
        ids = self._merges.ids
        return wordpiece_tokenizer(self.config, dict(ids), name or f"wordpiece-{len(ids)}")

    def _next(self) -> MergeStep | None:
        return self._merges.next()

    def _note_stop(self) -> None:
        self.notes.append(self._merges.stop_note(len(self.steps_done)))
        self.notes.extend(vocabulary_warnings(self.tokenizer(), self._word_counts, self.config, len(self.steps_done)))


def wordpiece_tokenizer(config: WordPieceTrainerConfig, vocab: dict[str, int], name: str) -> WordPieceTokenizer:
    """The tokenizer of a WordPiece vocabulary, with the front end ``config`` trains with (the one
    way: a training's ``tokenizer()`` and a finished run's model state both come here)."""
    from ...wordpiece.model import WordPieceTokenizer  # late: model imports nothing from here at load time

    return WordPieceTokenizer(
        vocab,
        name=name,
        unk_token=config.unk_token,
        continuing_prefix=config.continuing_prefix,
        max_input_chars_per_word=config.max_input_chars_per_word,
        normalizer=config.normalizer if config.pre_tokenizer is None else None,
        pre_tokenizer=config.pre_tokenizer,
        special_tokens=config.special_tokens,
    )
