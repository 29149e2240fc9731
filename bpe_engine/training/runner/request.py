"""What one training run needs, copied out of the UI (or the CLI) into a frozen, picklable value."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...choices import ModelName, TieBreak
from ...corpus.cut import CorpusWords
from ...errors import ConfigError
from ...pretokenizers import GPT2, PreTokenizer
from ..bpe.config import DEFAULT_MAX_TOKEN_LENGTH


@dataclass(frozen=True)
class TrainingRequest:
    """One run's corpus and settings.

    ``stop_after`` and ``throttle`` exist for tests and benchmarks: stop consuming after that
    many merges (the run then stays "in progress"), or sleep that long after each merge (a long
    run on a tiny corpus). Both work the same in a thread and in the child process.

    ``words`` is ``text`` already cut by ``pre_tokenizer``, when the caller has it: the app cuts
    the corpus for its facts line as soon as it is opened, and a run given that cut goes straight
    to counting pairs (the cut is about half of training 5 MB). It never decides the merges, so it
    is left out of comparisons and of :meth:`settings`; a cut of another length than ``text`` is
    ignored and the run cuts the text itself.
    """

    text: str
    model: ModelName = "bpe"
    byte_level: bool = True
    pre_tokenizer: PreTokenizer = field(default=GPT2)
    vocab_size: int = 1000
    min_frequency: int = 0
    tie_break: TieBreak = "hf"
    special_tokens: tuple[str, ...] = ()
    max_token_length: int | None = DEFAULT_MAX_TOKEN_LENGTH
    unk_token: str | None = None
    stop_after: int | None = None
    throttle: float = 0.0
    words: CorpusWords | None = field(default=None, compare=False, repr=False)

    @property
    def effective_byte_level(self) -> bool:
        """WordPiece is always character-level."""
        return self.byte_level and self.model == "bpe"

    @property
    def continuing_prefix(self) -> str | None:
        """The symbol prefix of non-initial pieces (WordPiece's ``##``)."""
        return "##" if self.model == "wordpiece" else None

    def cut_words(self) -> CorpusWords | None:
        """The caller's cut of the corpus, when it fits the text (None: cut it here)."""
        words = self.words
        return words if words is not None and words.characters == len(self.text) else None

    def settings(self) -> TrainingRequest:
        """The same run without the test hooks (what decides the merges)."""
        return TrainingRequest(
            self.text, self.model, self.byte_level, self.pre_tokenizer, self.vocab_size, self.min_frequency,
            self.tie_break, self.special_tokens, self.max_token_length, self.unk_token,
        )


def make_training(request: TrainingRequest, counts):  # noqa: ANN001, ANN201 - WordCounts -> StepwiseTraining
    """The engine's trainer for ``request`` over ``counts`` (raises ConfigError on bad settings)."""
    if request.model == "wordpiece":
        from ...wordpiece import BERT_SPECIALS
        from ..wordpiece import WordPieceTrainerConfig, WordPieceTraining

        unk = request.unk_token or "[UNK]"  # as `bpe-explorer train --model wordpiece` does
        config = WordPieceTrainerConfig(
            vocab_size=request.vocab_size, pre_tokenizer=request.pre_tokenizer, min_frequency=request.min_frequency,
            special_tokens=tuple(dict.fromkeys([*BERT_SPECIALS, *request.special_tokens, unk])), unk_token=unk,
        )
        return WordPieceTraining(counts, config)
    if request.model != "bpe":
        raise ConfigError(f"unknown model {request.model!r}: choose bpe or wordpiece")
    from ..bpe import BpeTrainerConfig, BpeTraining

    config = BpeTrainerConfig(
        vocab_size=request.vocab_size,
        byte_level=request.byte_level,
        pre_tokenizer=request.pre_tokenizer,
        min_frequency=request.min_frequency,
        tie_break=request.tie_break,
        special_tokens=request.special_tokens,
        max_token_length=request.max_token_length,
        unk_token=request.unk_token,
    )
    return BpeTraining(counts, config)
