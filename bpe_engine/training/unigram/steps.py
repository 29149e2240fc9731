"""What the Unigram trainer yields, one frozen value per step (they cross a process pipe to the app).

Arrays travel as little-endian ``bytes`` (float32 scores and losses, int32 indices): compact,
immutable and picklable; the properties give numpy views. Indices always refer to the vocabulary
*before* the step, in its order, so :class:`~.history.UnigramHistory` can replay any step.

Each step names its ``kind`` (the step kinds the Unigram registration declares: ``seed``, ``em``,
``prune``, ``final``) and carries a :class:`~bpe_engine.training.steps.StepWhy`: an EM step's
``log-likelihood`` per sentence, a pruning round's ``loss`` threshold with the best removed piece as
its runner-up (a float tie named as one), the seeds' and the final vocabulary's best ``score``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..steps import StepWhy


def f32_bytes(values: np.ndarray) -> bytes:
    return np.asarray(values, "<f4").tobytes()


def i32_bytes(values: np.ndarray) -> bytes:
    return np.asarray(values, "<i4").tobytes()


@dataclass(frozen=True, slots=True)
class SeedStep:
    """The seed vocabulary: every kept character, then the best substrings by occurrences x
    length. ``kept_chars`` / ``dropped_chars``: the alphabet character_coverage kept and the
    characters it turned into ``▅`` (most frequent first)."""

    kind: ClassVar[str] = "seed"

    index: int
    pieces: tuple[str, ...]
    score_bytes: bytes
    num_chars: int
    num_candidates: int
    kept_chars: str
    dropped_chars: str
    coverage: float
    why: StepWhy

    @property
    def scores(self) -> np.ndarray:
        return np.frombuffer(self.score_bytes, "<f4")

    def top(self, n: int = 10) -> list[tuple[str, float]]:
        """The best-scored seeds (characters included), best first."""
        order = np.argsort(-self.scores, kind="stable")[:n]
        return [(self.pieces[i], float(self.scores[i])) for i in order]


@dataclass(frozen=True, slots=True)
class EmStep:
    """One E-step + M-step. ``kept``: indices of the pieces the M-step kept (expected count >= 0.5),
    in order; ``scores``: their new scores (Digamma update). ``objective``: SentencePiece's ``obj``
    (minus the corpus log-likelihood per sentence, under the model before the step);
    ``num_tokens``: tokens of the Viterbi segmentation of the distinct words under that model (each
    word once: SentencePiece's figure); ``corpus_tokens``: of the corpus (each word times its count)."""

    kind: ClassVar[str] = "em"

    index: int
    round: int
    sub_iteration: int
    size_before: int
    vocab_size: int
    objective: float
    num_tokens: int
    corpus_tokens: int
    kept_bytes: bytes
    score_bytes: bytes
    why: StepWhy

    @property
    def kept(self) -> np.ndarray:
        return np.frombuffer(self.kept_bytes, "<i4")

    @property
    def scores(self) -> np.ndarray:
        return np.frombuffer(self.score_bytes, "<f4")


@dataclass(frozen=True, slots=True)
class PruneStep:
    """One pruning round. ``keep``: indices kept, in the new order (pieces without a replacement
    first, then by loss); ``removed`` with ``losses`` (how much the corpus log-likelihood drops
    without the piece; 0 where none is computed) and ``reasons`` (0 ranked out by loss, 1 in no
    best path, 2 its own best segmentation splits it). ``threshold``: the loss of the last piece
    kept by loss; ``runner_up``: the best removed piece against the worst kept one."""

    kind: ClassVar[str] = "prune"

    index: int
    round: int
    size_before: int
    size_after: int
    keep_bytes: bytes
    removed_bytes: bytes
    loss_bytes: bytes
    reason_bytes: bytes
    threshold: float
    best_kept: tuple[str, float] | None
    lowest_kept: tuple[str, float] | None
    runner_up: tuple[tuple[str, float], tuple[str, float], bool] | None
    why: StepWhy

    @property
    def keep(self) -> np.ndarray:
        return np.frombuffer(self.keep_bytes, "<i4")

    @property
    def removed(self) -> np.ndarray:
        return np.frombuffer(self.removed_bytes, "<i4")

    @property
    def losses(self) -> np.ndarray:
        return np.frombuffer(self.loss_bytes, "<f4")

    @property
    def reasons(self) -> np.ndarray:
        return np.frombuffer(self.reason_bytes, "i1")


@dataclass(frozen=True, slots=True)
class FinalStep:
    """The finished vocabulary in id order (specials included): ``types`` are SentencePiece piece
    types (1 normal, 2 unknown, 3 control, 4 user-defined, 6 byte); ``restored``: required
    characters EM had dropped and finalize put back at the lowest score."""

    kind: ClassVar[str] = "final"

    index: int
    pieces: tuple[str, ...]
    score_bytes: bytes
    types: tuple[int, ...]
    restored: tuple[str, ...]
    why: StepWhy

    @property
    def scores(self) -> np.ndarray:
        return np.frombuffer(self.score_bytes, "<f4")


UnigramStep = SeedStep | EmStep | PruneStep | FinalStep
