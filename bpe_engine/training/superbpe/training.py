"""SuperBPE training: our BPE trainer to the transition point, then resumed across spaces.

Stage 1 is :class:`~bpe_engine.training.bpe.BpeTraining` with the usual pre-tokenizer, stopped after
``transition`` merges. Stage 2 counts the corpus again with the stage-2 pre-tokenizer (words may
cross single spaces), cuts each of its words into stage 1's tokens (the stage-1 model's own
encoding of the word, :meth:`BpeBase.word_encoder <bpe_engine.surgery.base.BpeBase.word_encoder>`),
and resumes the same loop from there (:meth:`BpeTraining.resume`, the primitive ``extend`` uses),
with SuperBPE's two rules as the pairs it may merge. Nothing of BPE is re-implemented: the merges,
ids, tie-break rules and stop rules are the BPE trainer's.

With ``transition=0`` and the rules off, stage 2 is HF ``BpeTrainer`` with ``Split(stage-2 regex,
"isolated")`` + ``ByteLevel(use_regex=False)``, rank for rank (the tests hold it to that).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from ...choices import VOCAB_SIZE_MAX
from ...corpus import Document, count_words
from ..bpe.config import BpeTrainerConfig
from ..bpe.setup import BpeInitialState, Vocabulary
from ..bpe.training import BpeTraining, tokenizer_from_state
from ..steps import MergeStep
from ..word_table import Words
from .config import SuperBpeConfig

if TYPE_CHECKING:  # pragma: no cover
    from ...bpe.model import BpeTokenizer
    from ..runner.model_state import MergeModelState


class _Stage2(BpeTraining):
    """The BPE loop with a say over which pairs it may merge (SuperBPE's rules)."""

    _allows: Callable[[str], bool] | None = None

    @classmethod
    def start(cls, state: BpeInitialState, config: BpeTrainerConfig, allows: Callable[[str], bool] | None) -> _Stage2:
        training = cls.__new__(cls)
        training._allows = allows
        training._begin(state, config)
        return training

    def _allowed_pairs(self) -> Callable[[str], bool] | None:
        allows = self._allows
        if allows is None:
            return None
        tokens = self._vocab.tokens
        return lambda pair: allows(tokens[ord(pair[0])] + tokens[ord(pair[1])])


class SuperBpeTraining:
    """One SuperBPE run: stage 1's merges, then stage 2's, one :class:`MergeStep` at a time."""

    def __init__(self, corpus: Iterable[Document | str | bytes], config: SuperBpeConfig, *, workers: int = 2) -> None:
        self.config = config
        self._docs = list(corpus)  # read twice: once per stage's pre-tokenizer
        self._workers = workers
        self.stage1 = BpeTraining(self._docs, replace(config.stage_config(1), vocab_size=VOCAB_SIZE_MAX), workers=workers)
        self.stage2: _Stage2 | None = None
        self.notes: list[str] = self.stage1.notes
        self.initial_size = self.stage1.initial_size
        self.finished = False

    @property
    def target_steps(self) -> int:
        return max(0, self.config.vocab_size - self.initial_size)

    @property
    def merges(self) -> list[tuple[str, str]]:
        return self.stage1.merges + (self.stage2.merges if self.stage2 else [])

    def steps(self) -> Iterator[MergeStep]:
        """Stage 1's merges up to the transition (or the size), then stage 2's, ranked after them."""
        cfg = self.config
        stage1 = self.stage1.steps()
        while self.stage2 is None and len(self.stage1.merges) < cfg.transition and len(self.stage1._vocab) < cfg.vocab_size:
            step = next(stage1, None)
            if step is None:
                break
            yield step
        if self.stage2 is None:
            self.stage2 = self._begin_stage2()
            self.notes.extend(self.stage2.notes)
        offset = len(self.stage1.merges)
        for step in self.stage2.steps():
            yield replace(step, rank=offset + step.rank)
        self.finished = True

    def model_state(self) -> MergeModelState:
        """The model so far as plain data (``model`` is ``superbpe``: its hooks build it)."""
        from ..runner.model_state import MergeModelState

        vocab = (self.stage2 or self.stage1)._vocab.ids
        return MergeModelState(self.config, tuple(vocab.items()), tuple(self.merges))

    def tokenizer(self, name: str | None = None) -> BpeTokenizer:
        """The model so far: stage 1's merges then stage 2's, with stage 2's pre-tokenizer."""
        vocab = (self.stage2 or self.stage1)._vocab.ids
        return tokenizer_from_state(self.config.stage_config(2), vocab, self.merges, name or f"superbpe-{len(vocab)}")

    def _begin_stage2(self) -> _Stage2:
        """The corpus counted with the stage-2 pre-tokenizer, each word in stage 1's tokens."""
        from ...surgery.base import bpe_base  # late: surgery imports the trainer

        cfg = self.config
        config2 = cfg.stage_config(2)
        counts = count_words(self._docs, config2.pre_tokenizer, config2.special_tokens, byte_level=True, workers=self._workers)
        encode = bpe_base(self.stage1.tokenizer()).word_encoder()
        symbols: list[str] = []
        weights: list[int] = []
        for word, n in counts.counts.items():
            ids = encode(word) if n > 0 else None
            if ids is not None and len(ids) > 1:
                symbols.append("".join(map(chr, ids)))
                weights.append(n)
        v = self.stage1._vocab
        vocab = Vocabulary(list(v.tokens), dict(v.ids), list(v.lengths))
        merged = frozenset(s.new_id for s in self.stage1.steps_done)
        state = BpeInitialState(vocab, self.stage1.alphabet, Words(symbols, weights), [], merged, corpus_empty=not counts.counts)
        rules = cfg.allows if (cfg.colon_rule or cfg.max_words is not None) else None
        return _Stage2.start(state, config2, rules)
