"""The toy's loop: count every adjacent pair of every word, merge the most frequent, again."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import ClassVar

from bpe_engine.training.runner.model_state import MergeModelState
from bpe_engine.training.steps import StepWhy, why_of_ranking

from .config import ToyConfig


@dataclass(frozen=True)
class ToyStep:
    """One toy merge: its own step kind (the engine's stepper reads ``left``/``right``/``new``)."""

    kind: ClassVar[str] = "toy merge"
    rank: int
    left: str
    right: str
    new: str
    count: int
    why: StepWhy


@dataclass(frozen=True)
class ToyModelState:
    vocab: tuple[tuple[str, int], ...]
    merges: tuple[tuple[str, str], ...]
    model: str = "toy"


class ToyTraining:
    def __init__(self, counts: Mapping[str, int] | Iterable[str], config: ToyConfig) -> None:
        if not isinstance(counts, Mapping):
            tally: Counter[str] = Counter()
            for text in counts:
                tally.update(config.front_end.split(text))
            counts = tally
        self.config = config
        self.words = {tuple(word): n for word, n in counts.items() if word}
        alphabet = sorted({ch for word in self.words for ch in word})
        self.vocab = {ch: i for i, ch in enumerate(alphabet)}
        self.merges: list[tuple[str, str]] = []
        self.notes: list[str] = [f"toy alphabet: {len(alphabet)} characters"]
        self.initial_size = len(alphabet)

    @property
    def target_steps(self) -> int:
        return max(0, self.config.vocab_size - self.initial_size)

    def steps(self) -> Iterator[ToyStep]:
        while len(self.vocab) < self.config.vocab_size:
            pairs: Counter[tuple[str, str]] = Counter()
            for word, n in self.words.items():
                for pair in zip(word, word[1:]):
                    pairs[pair] += n
            by_pair = sorted(pairs.items(), reverse=self.config.order == "last")  # ties: the first or last pair
            ranked = sorted(by_pair, key=lambda p: -p[1])
            if not ranked or ranked[0][1] < self.config.min_count:
                self.notes.append(f"stopped: no pair occurs {self.config.min_count} times")
                return
            (left, right), count = ranked[0]
            new = left + right
            self.words = {_merged(word, left, right, new): n for word, n in self.words.items()}
            self.vocab.setdefault(new, len(self.vocab))
            self.merges.append((left, right))
            yield ToyStep(len(self.merges) - 1, left, right, new, count, why_of_ranking("count", ranked, self.config.order))

    def model_state(self) -> ToyModelState:
        return ToyModelState(tuple(self.vocab.items()), tuple(self.merges))


def _merged(word: tuple[str, ...], left: str, right: str, new: str) -> tuple[str, ...]:
    out: list[str] = []
    i = 0
    while i < len(word):
        if i + 1 < len(word) and word[i] == left and word[i + 1] == right:
            out.append(new)
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


__all__ = ["MergeModelState", "ToyModelState", "ToyStep", "ToyTraining"]
