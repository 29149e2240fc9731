"""The step list's columns for each trainer, and one row of plain text per step.

A BPE merge is chosen by its pair's count, a WordPiece merge by its score, a Unigram step is an EM
iteration or a pruning round: the list shows what decided each step. Row 0 is the state before
any step (the alphabet, or for Unigram the empty model before the seeds); row ``k`` is step
``k``, numbered from 1 as everywhere in the app and the CLI. A step that won a tie carries
:data:`TIE_MARK` on its deciding number.

>>> from bpe_engine.training.steps import MergeStep, StepWhy
>>> step = MergeStep(0, "e", "s", "es", 1, 2, 3, 9, 2, 9, why=StepWhy("count", 9, ("s", "t"), 9, (("s", "t"),), 1, "hf"))
>>> [c.title for c in columns_for("bpe")], row_of(step, byte_level=False)
(['#', 'merge', 'count', 'words'], ('1', 'e + s → es', '9=', '2'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ..choices import ModelName
from ..training.steps import MergeStep, TrainingStep
from .surfaces import merge_label, token_label

if TYPE_CHECKING:
    from ..training.unigram.steps import UnigramStep

TIE_MARK = "="
"""After the deciding number of a step that won a tie (the step's why names the rule)."""


@dataclass(frozen=True, slots=True)
class Column:
    """``numeric`` columns are right-aligned and as wide as their widest value; the one
    ``flexible`` column takes the width left."""

    title: str
    numeric: bool = True
    flexible: bool = False


_NUMBER = Column("#")
COLUMNS: dict[ModelName, tuple[Column, ...]] = {
    "bpe": (_NUMBER, Column("merge", False, True), Column("count"), Column("words")),
    "wordpiece": (_NUMBER, Column("merge", False, True), Column("score"), Column("count"), Column("words")),
    "unigram": (_NUMBER, Column("step", False, True), Column("vocab"), Column("log-lik / loss"), Column("tokens")),
}


def columns_for(model: ModelName) -> tuple[Column, ...]:
    return COLUMNS[model]


def start_row(model: ModelName, alphabet: int | None) -> tuple[str, ...]:
    """Row 0: the state before the first step."""
    what = "initial alphabet" if alphabet is None else f"alphabet ({alphabet:,} symbols)"
    if model == "unigram":
        what = "before the seeds"
    return ("0", what, *("" for _ in COLUMNS[model][2:]))


def row_of(step: TrainingStep, *, byte_level: bool) -> tuple[str, ...]:
    """The cells of one step (its number, what it did, its numbers)."""
    if isinstance(step, MergeStep):
        label = merge_label(step.left, step.right, step.new, byte_level=byte_level)
        tie = TIE_MARK if step.why is not None and step.why.is_tie else ""
        number = f"{step.rank + 1:,}"
        if step.score is not None:
            return number, label, f"{step.score:.4g}{tie}", f"{step.count:,}", f"{step.words_changed:,}"
        return number, label, f"{step.count:,}{tie}", f"{step.words_changed:,}"
    return _unigram_row(step)


def column_widths(steps: Sequence[TrainingStep], *, byte_level: bool) -> tuple[int, ...]:
    """The width each column needs for ``steps`` (0 for the flexible one). Merges are measured by
    their largest numbers, formatted once -- not row by row: formatting the ~3,000 rows of a batch
    was most of a batch's time on the UI thread while 5 MB trained."""
    if not steps:
        return ()
    if all(isinstance(s, MergeStep) for s in steps):
        merges = cast("Sequence[MergeStep]", steps)  # every step is one, checked just above
        count = len(f"{max(s.count for s in merges):,}") + len(TIE_MARK)
        words = len(f"{max(s.words_changed for s in merges):,}")
        if merges[0].score is not None:
            score = max(len(f"{s.score:.4g}") for s in merges) + len(TIE_MARK)
            return 0, 0, score, count, words
        return 0, 0, count, words
    rows = [row_of(s, byte_level=byte_level) for s in steps]  # Unigram: a few dozen steps a run
    return tuple(0 if i == 1 else max(len(r[i]) for r in rows) for i in range(len(rows[0])))


def _unigram_row(step: UnigramStep) -> tuple[str, ...]:
    from ..training.unigram.steps import EmStep, FinalStep, PruneStep, SeedStep

    number = f"{step.index + 1:,}"
    if isinstance(step, SeedStep):
        return number, f"seeds: {len(step.pieces):,} pieces (top {token_label(step.top(1)[0][0], byte_level=False)})", f"{len(step.pieces):,}", "", ""
    if isinstance(step, EmStep):
        return (
            number, f"EM round {step.round + 1}.{step.sub_iteration + 1}", f"{step.vocab_size:,}",
            f"{-step.objective:,.4f}", f"{step.corpus_tokens:,}",
        )
    if isinstance(step, PruneStep):
        gone = step.size_before - step.size_after
        tie = TIE_MARK if step.runner_up is not None and step.runner_up[2] else ""
        return number, f"prune round {step.round + 1}: -{gone:,} pieces", f"{step.size_after:,}", f"{step.threshold:.4g}{tie}", ""
    assert isinstance(step, FinalStep)
    return number, f"final vocabulary ({len(step.restored):,} characters restored)", f"{len(step.pieces):,}", "", ""


__all__ = ["COLUMNS", "TIE_MARK", "Column", "column_widths", "columns_for", "row_of", "start_row"]
