"""Scaffold-BPE training: our BPE trainer's loop, plus the scaffold test after each merge.

Lian et al., "Scaffold-BPE" (AAAI 2025): a token that was only a step towards longer ones -- its
own frequency has fallen below the count of the pairs still to merge -- is a *scaffold*. It stays in
the corpus and keeps merging (the longer tokens need it), but it is not in the final vocabulary,
so each scaffold buys one more merge, and encoding breaks scaffolds back into their parts
(:mod:`.model`). Which pair count it is compared with, and whether it can come back, is the
config's ``variant`` (:mod:`.config`).

The merges are :class:`~bpe_engine.training.bpe.BpeTraining`'s own (same pair index, words table
and tie-break rules): this module only keeps each token's frequency (a merge of ``x y`` moves its
occurrences from ``x`` and ``y`` to ``xy``) and the scaffold set. Characters are never scaffolds:
there is nothing to break them into.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from heapq import heappop, heappush
from typing import ClassVar, TypeAlias

from ...choices import VOCAB_SIZE_MAX
from ...corpus import Document, WordCounts
from ..bpe.config import BpeTrainerConfig
from ..bpe.setup import BpeInitialState
from ..bpe.tie_breaks import IdOrderRule, TieBreakRule
from ..bpe.training import BpeTraining
from ..steps import MergeStep, StepWhy
from .config import ScaffoldConfig
from .model import ScaffoldModelState, ScaffoldTokenizer


@dataclass(frozen=True, slots=True)
class ScaffoldStep:
    """A token that became a scaffold after a merge it was a part of (``rank``: its event number)."""

    kind: ClassVar[str] = "scaffold"
    rank: int
    token: str
    token_id: int
    frequency: int
    next_count: int
    child: str
    why: StepWhy


@dataclass(frozen=True, slots=True)
class ReactivateStep:
    """A scaffold whose frequency rose above the best pair's count: back in the vocabulary."""

    kind: ClassVar[str] = "reactivate"
    rank: int
    token: str
    token_id: int
    frequency: int
    best_count: int
    why: StepWhy


def _scaffold_why(token: str, frequency: int, next_count: int, child: str) -> StepWhy:
    return StepWhy("frequency", frequency, note=(
        f"{token!r} occurs {frequency:,} times on its own after making {child!r}, below the {next_count:,} of the "
        "next pair: a scaffold (it still merges, but leaves the vocabulary)"
    ))


def _reactivate_why(token: str, frequency: int, best: int) -> StepWhy:
    return StepWhy("frequency", frequency, note=f"{token!r} occurs {frequency:,} times, above the best pair's {best:,}: back in the vocabulary")


ScaffoldEvent: TypeAlias = "MergeStep | ScaffoldStep | ReactivateStep"
"""A merge is a plain :class:`MergeStep` (kind ``merge``), as BPE's."""


class _Loop(BpeTraining):
    """BPE's merge loop with token frequencies and the scaffold test (the size is checked outside)."""

    def _begin(self, state: BpeInitialState, config: BpeTrainerConfig) -> None:
        super()._begin(state, config)
        self.freq = [0] * len(self._vocab)
        for word, n in zip(self._words.symbols, self._words.counts):
            for symbol in word:
                self.freq[ord(symbol)] += n
        self.atoms = len(self._vocab)  # specials and the alphabet: never scaffolds

    def _rule(self, where: dict[str, list[int]]) -> TieBreakRule:
        """``hf``'s order with exhaustive bookkeeping: a merged pair's count goes to 0, so the count of
        "the next pair" is one a recount would give (HF keeps a merged pair's count as it was)."""
        return IdOrderRule() if self.config.tie_break == "hf" else super()._rule(where)


class ScaffoldTraining:
    """One Scaffold-BPE run, advanced one event at a time by :meth:`steps` (resumable)."""

    def __init__(self, corpus: WordCounts | Iterable[Document | str | bytes], config: ScaffoldConfig, *, workers: int = 2) -> None:
        self.config = config
        # the loop never stops for the size: this class counts it, less the scaffolds
        self._loop = _Loop(corpus, replace(config.bpe, vocab_size=VOCAB_SIZE_MAX), workers=workers)
        self.notes = self._loop.notes
        self.initial_size = self._loop.initial_size
        self.scaffolds: set[int] = set()
        self.ever: set[int] = set()
        self.events: list[ScaffoldEvent] = []
        self.finished = False
        self._queue: deque[ScaffoldEvent] = deque()
        self._waiting: list[tuple[int, int]] = []  # (-frequency, id) of scaffolds: who comes back first

    @property
    def target_steps(self) -> int:
        return max(0, self.config.vocab_size - self.initial_size)

    @property
    def merges(self) -> list[tuple[str, str]]:
        return self._loop.merges

    @property
    def size(self) -> int:
        """Tokens in the vocabulary: every token made, less the scaffolds."""
        return len(self._loop._vocab) - len(self.scaffolds)

    def steps(self) -> Iterator[ScaffoldEvent]:
        while True:
            while self._queue:
                yield self._queue.popleft()
            if self.finished:
                return
            if not self._advance():
                self.finished = True  # what the last call emitted (a re-activation) is still yielded

    def model_state(self) -> ScaffoldModelState:
        """The model as plain data: BPE over every merge, and which tokens are scaffolds."""
        parts: dict[int, tuple[int, int, int]] = {}
        for e in self.events:
            if isinstance(e, MergeStep):
                parts.setdefault(e.new_id, (e.new_id, e.left_id, e.right_id))
        return ScaffoldModelState(self._loop.model_state(), frozenset(self.scaffolds), tuple(parts.values()), self.config)

    def tokenizer(self) -> ScaffoldTokenizer:
        return ScaffoldTokenizer(self.model_state())

    def final_vocab(self) -> dict[str, int]:
        tokens = self._loop._vocab.tokens
        kept = [t for i, t in enumerate(tokens) if i not in self.scaffolds]
        return {t: i for i, t in enumerate(kept)}

    # -- one step --------------------------------------------------------------------------------
    def _advance(self) -> bool:
        loop = self._loop
        if self.config.variant == "paper":
            self._reactivate()
        if self.size >= self.config.vocab_size:
            return False
        step = loop._next()
        if step is None:
            loop._note_stop()
            return False
        freq = loop.freq
        if step.new_id == len(freq):
            freq.append(0)
        freq[step.new_id] += step.occurrences
        freq[step.left_id] -= step.occurrences
        freq[step.right_id] -= step.occurrences
        step = replace(step, rank=len(self.events))  # numbered among all events, as the step list shows them
        self._emit(step)
        if self.config.variant == "tktkt":  # the best pair before this merge's count changes
            threshold = int(step.why.runner_up_value or 0) if step.why else 0
        else:
            threshold = loop._pairs.best_count()
        for part in dict.fromkeys((step.left_id, step.right_id)):
            self._test(part, threshold, step.new)
        for t in (step.left_id, step.right_id, step.new_id):
            if t in self.scaffolds:
                heappush(self._waiting, (-freq[t], t))
        return True

    def _test(self, part: int, threshold: int, child: str) -> None:
        freq = self._loop.freq[part]
        if part < self._loop.atoms or part in self.scaffolds or freq >= threshold:
            return
        if self.config.variant == "tktkt" and part in self.ever:
            return  # TkTkT's rule: a scaffold once is a scaffold for good
        self.scaffolds.add(part)
        self.ever.add(part)
        token = self._loop._vocab.tokens[part]
        self._emit(ScaffoldStep(len(self.events), token, part, freq, threshold, child, _scaffold_why(token, freq, threshold, child)))

    def _reactivate(self) -> None:
        """Bring back every scaffold whose frequency is above the best pair's count (a tie: the merge)."""
        waiting, freq = self._waiting, self._loop.freq
        while waiting:
            neg, t = waiting[0]
            if t not in self.scaffolds or -neg != freq[t]:
                heappop(waiting)  # stale: re-activated already, or its frequency moved (a fresh entry exists)
                continue
            best = self._loop._pairs.best_count()
            if -neg <= best:
                return
            heappop(waiting)
            self.scaffolds.discard(t)
            token = self._loop._vocab.tokens[t]
            self._emit(ReactivateStep(len(self.events), token, t, -neg, best, _reactivate_why(token, -neg, best)))

    def _emit(self, event: ScaffoldEvent) -> None:
        self.events.append(event)
        self._queue.append(event)
