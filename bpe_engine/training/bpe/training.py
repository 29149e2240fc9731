"""Incremental BPE training: Hugging Face's ``BpeTrainer`` algorithm, in pure Python.

The corpus is first reduced to word -> count (:mod:`bpe_engine.corpus`); then, as in HF's
``do_train``:

1. special tokens take the first ids, in the order given;
2. the alphabet follows, sorted by code point (then the ``</w>`` symbols, if any);
3. every word becomes a string of symbol ids (steps 1-3: :mod:`.setup`; the words table:
   :mod:`bpe_engine.training.word_table`);
4. pairs are counted once, with the words they occur in, and pushed on a lazy heap ordered by
   the tie-break rule (:mod:`.pair_index`, :mod:`.tie_breaks`);
5. each merge pops the best pair, fuses it in its words (:meth:`Words.merge
   <bpe_engine.training.word_table.Words.merge>`) and feeds the pair-count changes those words report back
   into the index. The corpus is never recounted.

When a merge yields a token string already in the vocabulary (``a`` + ``bc`` after ``ab`` + ``c``),
the existing id is reused and the vocabulary does not grow, exactly like HF. Training stops when
the vocabulary reaches ``vocab_size``, when no pair is left, or when the best count is below
``min_frequency``. ``max_token_length`` follows HF's ``word.rs``: a pair formed by a merge is not
counted when its merged length would reach the limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...corpus import Document, WordCounts, count_words
from ...errors import ConfigError
from ..steps import MergeStep, StepWhy
from ..stepwise import StepwiseTraining
from .config import BpeTrainerConfig
from .pair_index import PairIndex
from .setup import BpeInitialState, drop_uncounted_pairs, initial_state
from .tie_breaks import FirstSeenRule, GreatestRule, HfRule, LexicographicRule, TieBreakRule, tie_rule

if TYPE_CHECKING:  # pragma: no cover
    from ...bpe.model import BpeTokenizer


@dataclass(frozen=True)
class TrainResult:
    """A finished training: the tokenizer, every merge step, and what the user should know."""

    tokenizer: BpeTokenizer
    steps: tuple[MergeStep, ...]
    notes: tuple[str, ...]


def train(
    corpus: WordCounts | Iterable[Document | str | bytes], config: BpeTrainerConfig, *, workers: int = 2
) -> TrainResult:
    """Run a training to the end (documents are counted first with the config's pre-tokenizer)."""
    training = BpeTraining(corpus, config, workers=workers)
    steps = tuple(training.steps())
    return TrainResult(training.tokenizer(), steps, tuple(training.notes))


def tokenizer_from_state(
    config: BpeTrainerConfig, vocab: Mapping[str, int], merges: Sequence[tuple[str, str]], name: str | None = None
) -> BpeTokenizer:
    """The tokenizer a training's vocabulary and merge list make (also rebuilt from a child
    process's final state). A pair merged twice (possible after an id reuse, see
    :mod:`.tie_breaks`) keeps its last rank, as HF's model does."""
    from ...bpe.model import BpeTokenizer  # late: the trainer works before the model is loaded

    last: dict[tuple[str, str], int] = {}
    for rank, pair in enumerate(merges):
        last[pair] = rank
    kept = [pair for rank, pair in enumerate(merges) if last[pair] == rank]
    specials = {t: vocab[t] for t in config.special_tokens}
    return BpeTokenizer(
        name=name or f"bpe-{len(vocab)}",
        vocab=dict(vocab),
        merges=kept,
        pre_tokenizer=config.pre_tokenizer,
        byte_level=config.byte_level,
        special_tokens=specials or None,
        unk_token=config.unk_token,
    )


class BpeTraining(StepwiseTraining):
    """One training run, advanced one merge at a time by :meth:`steps` (a UI can stop anywhere).

    ``vocab``, ``merges`` and :meth:`tokenizer` always reflect the merges made so far.
    """

    def __init__(
        self, corpus: WordCounts | Iterable[Document | str | bytes], config: BpeTrainerConfig, *, workers: int = 2
    ) -> None:
        if not isinstance(corpus, WordCounts):
            corpus = count_words(
                corpus, config.pre_tokenizer, config.special_tokens, byte_level=config.byte_level, workers=workers
            )
        if corpus.byte_level != config.byte_level:
            kind = "byte-level" if corpus.byte_level else "character-level"
            raise ConfigError(f"the word counts are {kind} but the config says byte_level={config.byte_level}")
        self._begin(initial_state(corpus.counts, config), config)  # steps 1-3

    @classmethod
    def resume(cls, state: BpeInitialState, config: BpeTrainerConfig) -> BpeTraining:
        """Go on training from ``state``: words already cut into the tokens of earlier merges (an
        extension of a base tokenizer, :mod:`bpe_engine.surgery`), through the same loop from step 4.

        ``config.vocab_size`` counts from ``len(state.vocab)`` (ids in use, holes included). Pairs
        HF's trainer would never have counted are left out as it leaves them: with a
        ``max_token_length``, a pair that holds a merged token and would reach the limit (a pair of
        two initial symbols is counted whatever its length, as HF counts the corpus's first pairs).
        """
        training = cls.__new__(cls)
        training._begin(state, config)
        return training

    def _begin(self, state: BpeInitialState, config: BpeTrainerConfig) -> None:
        self.config = config
        self.notes: list[str] = state.notes
        self.merges: list[tuple[str, str]] = []
        self.steps_done: list[MergeStep] = []
        self._vocab = state.vocab
        self._alphabet = state.alphabet
        self._words = state.words
        self._initial_size = len(state.vocab)
        self._finished = False
        self._stop = "size"
        self._stop_count = 0
        self._empty = state.corpus_empty
        counts, where = self._words.count_pairs()  # step 4
        if state.merged and config.max_token_length is not None:
            drop_uncounted_pairs(counts, where, state.merged, state.vocab.lengths, config.max_token_length)
        self._pairs = PairIndex(counts, where, self._rule(where))

    # -- public API ------------------------------------------------------------------------------
    @property
    def vocab(self) -> dict[str, int]:
        """Token -> id for the merges made so far (a copy)."""
        return dict(self._vocab.ids)

    @property
    def alphabet(self) -> tuple[str, ...]:
        return self._alphabet

    def tokenizer(self, name: str | None = None) -> BpeTokenizer:
        """A tokenizer from the merges so far."""
        return tokenizer_from_state(self.config, self._vocab.ids, self.merges, name)

    # -- the merge loop (step 5) -----------------------------------------------------------------
    def _next(self) -> MergeStep | None:
        cfg = self.config
        vocab = self._vocab
        if len(vocab) >= cfg.vocab_size:
            self._stop = "size"
            return None
        top = self._pairs.pop_best()
        if top is None:
            self._stop = "no-pair"
            return None
        count, pair, where = top
        if count < 1 or cfg.min_frequency > count:
            self._stop = "min-frequency" if count >= 1 else "no-pair"
            self._stop_count = count
            return None
        why = self._why(pair, count)  # before the merge changes any count
        left, right = ord(pair[0]), ord(pair[1])
        left_tok, right_tok = vocab.tokens[left], vocab.tokens[right]
        new = vocab.add(left_tok + right_tok, vocab.lengths[left] + vocab.lengths[right])
        merge = self._words.merge(pair, chr(new), where, lengths=vocab.lengths, max_length=cfg.max_token_length)
        self._pairs.apply(merge)
        step = MergeStep(
            rank=len(self.merges), left=left_tok, right=right_tok, new=vocab.tokens[new], left_id=left,
            right_id=right, new_id=new, count=count, words_changed=len(merge.changed),
            occurrences=merge.occurrences, why=why,
        )
        self.merges.append((left_tok, right_tok))
        self.steps_done.append(step)
        return step

    def _why(self, pair: str, count: int) -> StepWhy:
        """The count that chose ``pair``, the runner-up, and the tie and rule when counts tie."""
        found = self._pairs.contest(pair, count)
        tokens = self._vocab.tokens

        def spelled(p: str) -> tuple[str, str]:
            return tokens[ord(p[0])], tokens[ord(p[1])]

        runner_up = found.runner_up
        return StepWhy(
            "count",
            count,
            spelled(runner_up[0]) if runner_up else None,
            runner_up[1] if runner_up else None,
            tuple(map(spelled, found.tied)),
            found.tied_total,
            tie_rule(self.config.tie_break) if found.tied_total else None,
        )

    def _rule(self, where: dict[str, list[int]]) -> TieBreakRule:
        name = self.config.tie_break
        if name == "hf":
            return HfRule()
        if name == "lexicographic":
            return LexicographicRule(self._token_bytes)
        if name == "greatest":
            return GreatestRule(self._token_bytes)
        return FirstSeenRule(where, self._words, self._vocab.lengths)

    def _token_bytes(self, tid: int) -> bytes:
        from ...bpe.byte_table import token_str_to_bytes

        tok = self._vocab.tokens[tid]
        return token_str_to_bytes(tok) if self.config.byte_level else tok.encode("utf-8")

    def _note_stop(self) -> None:
        size = len(self._vocab)
        reason = self._stop
        asked = self.config.vocab_size
        if reason == "no-pair" and size < asked and not self._empty:
            self.notes.append(f"no pair left after {len(self.merges)} merges: the vocabulary has {size} tokens (asked {asked})")
        elif reason == "min-frequency":
            self.notes.append(
                f"stopped after {len(self.merges)} merges: the best pair occurs {self._stop_count} times, below "
                f"the minimum frequency {self.config.min_frequency}; the vocabulary has {size} tokens (asked {asked})"
            )
