"""The Unigram training replayed from its steps alone (no trainer needed): the app's memory.

``UnigramHistory(steps)`` answers *the model at step k* (pieces and scores, ready for the Unigram
encoder's Viterbi) and *a piece's story*: the step it entered (the seed step), its score after each
EM step, and the round and loss of its removal if it was removed.

>>> from bpe_engine.training.unigram import UnigramTraining, UnigramTrainerConfig
>>> t = UnigramTraining(["ab ab abc", "abc b a"] * 20, UnigramTrainerConfig(vocab_size=8, hard_vocab_limit=False))
>>> h = UnigramHistory(list(t.steps()))
>>> h.model_at(len(h) - 1) == t.pieces
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ...sentencepiece.model_proto import PieceType
from ...sentencepiece.unigram import UnigramModel
from .steps import EmStep, FinalStep, PruneStep, SeedStep, UnigramStep


@dataclass(slots=True)
class PieceStory:
    """``entered``: the step it appeared in; ``scores``: ``(step, score)`` after each EM step it
    lived through; ``removed_at`` / ``removed_round`` / ``loss`` / ``reason``: how it left
    (``reason``: "loss", "unused", "split" for pruning, "m-step" for an expected count below 0.5,
    "finalize" when cut to vocab_size); ``final_id`` if it is in the finished model."""

    piece: str
    entered: int
    scores: list[tuple[int, float]] = field(default_factory=list)
    removed_at: int | None = None
    removed_round: int | None = None
    loss: float | None = None
    reason: str | None = None
    final_id: int | None = None


_REASONS = {0: "loss", 1: "unused", 2: "split"}


class UnigramHistory:
    """The states and stories of a run's steps; :meth:`extend` takes steps as they arrive."""

    def __init__(self, steps: Sequence[UnigramStep] = ()) -> None:
        self.steps: list[UnigramStep] = []
        self._states: list[tuple[list[str], list[float]]] = []
        self._stories: dict[str, PieceStory] = {}
        self.extend(steps)

    def extend(self, steps: Sequence[UnigramStep]) -> None:
        """Replay ``steps`` after those already taken (a run streams its steps in batches)."""
        pieces, scores = self._states[-1] if self._states else ([], [])
        for step in steps:
            self.steps.append(step)
            if isinstance(step, SeedStep):
                pieces, scores = list(step.pieces), step.scores.tolist()
                for p in pieces:
                    self._stories[p] = PieceStory(p, step.index)
            elif isinstance(step, EmStep):
                kept = step.kept.tolist()
                keep_set = set(kept)
                for i, p in enumerate(pieces):
                    if i not in keep_set:
                        self._gone(p, step.index, None, None, "m-step")
                pieces = [pieces[i] for i in kept]
                scores = step.scores.tolist()
                for p, s in zip(pieces, scores, strict=True):
                    self._stories[p].scores.append((step.index, s))
            elif isinstance(step, PruneStep):
                for i, loss, why in zip(step.removed.tolist(), step.losses.tolist(), step.reasons.tolist(), strict=True):
                    self._gone(pieces[i], step.index, step.round, loss, _REASONS[why])
                keep = step.keep.tolist()
                pieces = [pieces[i] for i in keep]
                scores = [scores[i] for i in keep]
            elif isinstance(step, FinalStep):
                final = set(step.pieces)
                for p in pieces:
                    if p not in final:
                        self._gone(p, step.index, None, None, "finalize")
                pieces, scores = list(step.pieces), step.scores.tolist()
                for i, p in enumerate(pieces):
                    story = self._stories.setdefault(p, PieceStory(p, step.index))
                    story.final_id = i
            self._states.append((list(pieces), list(scores)))

    def __len__(self) -> int:
        return len(self.steps)

    def _gone(self, piece: str, step: int, rnd: int | None, loss: float | None, reason: str) -> None:
        story = self._stories[piece]
        story.removed_at, story.removed_round, story.loss, story.reason = step, rnd, loss, reason

    def model_at(self, k: int) -> list[tuple[str, float]]:
        """The vocabulary after step ``k``: ``(piece, score)`` in the trainer's order."""
        pieces, scores = self._states[k]
        return list(zip(pieces, scores, strict=True))

    def unigram_model(self, k: int) -> UnigramModel:
        """The model after step ``k`` for the existing Viterbi encoder (unknown characters get id
        0 there, as in SentencePiece's trainer model; after the final step, the real ``<unk>``)."""
        pieces = self.model_at(k)
        final = self.steps[k]
        if isinstance(final, FinalStep):
            kinds = [PieceType(t) for t in final.types]
            unk = kinds.index(PieceType.UNKNOWN)
            return UnigramModel(pieces, unk_id=unk, kinds=kinds, float32=True)
        return UnigramModel(pieces, unk_id=0, kinds=[PieceType.NORMAL] * len(pieces), float32=True)

    def story(self, piece: str) -> PieceStory | None:
        return self._stories.get(piece)
