"""The Train tab's stepper for trainers whose steps are more than merges (PickyBPE, Scaffold-BPE).

A merge fuses a pair; a PickyBPE ``split`` rewrites a token as its parts; a ``restore`` is a merge;
a Scaffold-BPE ``scaffold`` or ``reactivate`` step changes the vocabulary but not the corpus. The
corpus at step k is what these events, in order, make of each word: every word replays them --
the earliest event that applies after the last one applied, again and again (PickyBPE's own
segmenter rule, which is the training's order, word by word). Only the words on screen are replayed,
each once per step (:meth:`EventStepper.window`), so a step costs what the view shows.

Tokens are compared as strings, so the rule needs no ids: a merge names its two tokens and the
token they make, a split the token and its parts. Steps are read by their declared ``kind``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal

from .corpus_pieces import CorpusPieces

_MERGES = ("merge", "restore")
_FAR = 1 << 62


class EventStepper:
    """:class:`~bpe_engine.explore.train_stepper.TrainStepper` over merge, split and vocabulary events."""

    explains: Literal["lines"] = "lines"
    models_per_step = False
    initial_token_count: int | None = None

    def __init__(self, pieces: CorpusPieces, word_texts: Sequence[str], characters: int) -> None:
        self.pieces = pieces
        self.word_texts = word_texts
        self._characters = characters
        self._steps: list[Any] = []
        self._merge_at: dict[tuple[str, str], list[int]] = {}
        self._split_at: dict[str, list[int]] = {}
        self._parts: dict[int, tuple[str, ...]] = {}
        self._step = 0
        self._cache: dict[int, tuple[str, ...]] = {}

    @classmethod
    def of_cut(cls, words: Any, text_length: int) -> EventStepper:
        """Over a corpus cut (:class:`~bpe_engine.corpus.cut.CorpusWords`)."""
        return cls(CorpusPieces.of_cut(words), words.texts, text_length)

    # -- the protocol ----------------------------------------------------------------------------
    @property
    def step(self) -> int:
        return self._step

    @property
    def available(self) -> int:
        return len(self._steps)

    @property
    def characters(self) -> int:
        return self._characters

    @property
    def token_count(self) -> int | None:
        return None

    def feed(self, steps: Sequence[Any]) -> None:
        for step in steps:
            rank = len(self._steps)
            self._steps.append(step)
            if step.kind in _MERGES:
                m = step.merge if step.kind == "restore" else step
                self._merge_at.setdefault((m.left, m.right), []).append(rank)
            elif step.kind == "split":
                self._split_at.setdefault(step.token, []).append(rank)
                self._parts[rank] = tuple(step.parts)

    def seek(self, step: int, *, until: float | None = None) -> bool:  # noqa: ARG002 - a seek is instant
        step = max(0, min(step, len(self._steps)))
        if step != self._step:
            self._step = step
            self._cache.clear()
        return True

    def ready(self) -> bool:
        return True

    def prepare(self) -> None:
        """Nothing to make: each word on screen is replayed as it is drawn."""

    def window(self, text: Any, start: int, end: int) -> Iterator[tuple[int, int, tuple[str, ...]]]:  # noqa: ARG002
        for word_id, p_start, p_end in self.pieces.between(start, end):
            yield p_start, p_end, self.tokens_of(word_id)

    def highlight(self) -> str | None:
        """The token the step made (a merge or restore) or removed (a split, a scaffold)."""
        if not self._step:
            return None
        step = self._steps[self._step - 1]
        if step.kind in _MERGES:
            return (step.merge if step.kind == "restore" else step).new
        return getattr(step, "token", None)

    def focus(self) -> int | None:
        return None

    def tokenizer_at(self, step: int) -> None:  # noqa: ARG002 - the model at k is the finished one's
        return None

    def detail(self) -> tuple[tuple[tuple[str, Any], ...], ...]:
        """For a split, the parts; otherwise the step's why says it all."""
        if not self._step:
            return ()
        step = self._steps[self._step - 1]
        if step.kind == "split":
            return ((("split into ", "label"), (" + ".join(step.parts), "value"), (f"  in {step.words_changed:,} words", "note")),)
        return ()

    def initial_type_counts(self) -> Mapping[str, int] | None:
        return None

    # -- the replay ------------------------------------------------------------------------------
    def tokens_of(self, word_id: int) -> tuple[str, ...]:
        found = self._cache.get(word_id)
        if found is None:
            found = self._cache[word_id] = self.replay(self.word_texts[word_id], self._step)
        return found

    def replay(self, word: str, until: int) -> tuple[str, ...]:
        """``word`` after the events before ``until``: the earliest that applies after the last, again."""
        tokens = list(word)
        last = -1
        while True:
            merge_rank, pair = _earliest(((tuple(tokens[k : k + 2]), self._merge_at) for k in range(len(tokens) - 1)), last, until)
            split_rank, held = _earliest(((t, self._split_at) for t in set(tokens)), last, until)
            if pair is None and held is None:
                return tuple(tokens)
            if held is None or (pair is not None and merge_rank < split_rank):
                assert isinstance(pair, tuple)
                tokens, last = _fused(tokens, pair), merge_rank
            else:
                parts = self._parts[split_rank]
                tokens, last = [p for t in tokens for p in (parts if t == held else (t,))], split_rank


def _earliest(candidates: Any, last: int, until: int) -> tuple[int, Any]:
    best, key = _FAR, None
    for k, table in candidates:
        ranks = table.get(k)
        if ranks:
            i = bisect_left(ranks, last)
            if i < len(ranks) and ranks[i] < min(best, until):
                best, key = ranks[i], k
    return best, key


def _fused(tokens: list[str], pair: tuple[str, str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if i + 1 < len(tokens) and tokens[i] == pair[0] and tokens[i + 1] == pair[1]:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out


__all__ = ["EventStepper"]
