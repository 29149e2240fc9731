"""The step list's rows: one row of plain text per step, by the step's declared kind.

Each trainer declares its step kinds with their columns (:mod:`bpe_engine.training.registry`); a
kind names the function that makes its row. The merge kinds' rows are here: a BPE merge is chosen
by its pair's count, a WordPiece merge by its score, so the list shows what decided each step. Row
0 is the state before any step (the alphabet, or what the trainer declares: Unigram's "before the
seeds"); row ``k`` is step ``k``, numbered from 1 as everywhere in the app and the CLI. A step that
won a tie carries :data:`TIE_MARK` on its deciding number.

>>> from bpe_engine.training.registry import spec_for
>>> from bpe_engine.training.steps import MergeStep, StepWhy
>>> step = MergeStep(0, "e", "s", "es", 1, 2, 3, 9, 2, 9, why=StepWhy("count", 9, ("s", "t"), 9, (("s", "t"),), 1, "hf"))
>>> [c.title for c in spec_for("bpe").columns], row_of(step, byte_level=False)
(['#', 'merge', 'count', 'words'], ('1', 'e + s → es', '9=', '2'))
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import TYPE_CHECKING

from ..training.registry import Column, step_kind
from ..training.steps import MergeStep, StepWhy, TrainingStep
from .surfaces import merge_label, merge_number

if TYPE_CHECKING:
    from ..training.registry import TrainerSpec

TIE_MARK = "="
"""After the deciding number of a step that won a tie (the step's why names the rule)."""


def tie_mark(why: StepWhy | None) -> str:
    return TIE_MARK if why is not None and why.is_tie else ""


def columns_for(spec: TrainerSpec) -> tuple[Column, ...]:
    return spec.columns


def start_row(spec: TrainerSpec, alphabet: int | None) -> tuple[str, ...]:
    """Row 0: the state before the first step."""
    what = spec.start_label or ("initial alphabet" if alphabet is None else f"alphabet ({alphabet:,} symbols)")
    return ("0", what, *("" for _ in spec.columns[2:]))


def row_of(step: TrainingStep, *, byte_level: bool) -> tuple[str, ...]:
    """The cells of one step (its number, what it did, its numbers), as its kind declares them."""
    return step_kind(step.kind).row.load()(step, byte_level=byte_level)


def title_of(step: TrainingStep, *, byte_level: bool) -> str:
    """The step detail's first line, as its kind declares it."""
    return step_kind(step.kind).title.load()(step, byte_level=byte_level)


def column_widths(steps: Sequence[TrainingStep], *, byte_level: bool) -> tuple[int, ...]:
    """The width each column needs for ``steps`` (0 for the flexible one): each run of one kind is
    measured by its kind's ``widths`` when it declares one (merges: by their largest numbers,
    formatted once -- formatting the ~3,000 rows of a batch was most of a batch's time on the UI
    thread while 5 MB trained), else row by row (Unigram: a few dozen steps a run)."""
    widths: tuple[int, ...] = ()
    for name, run in groupby(steps, key=lambda s: s.kind):
        group = list(run)
        kind = step_kind(name)
        if kind.widths is not None:
            found = tuple(kind.widths.load()(group, byte_level=byte_level))
        else:
            rows = [row_of(s, byte_level=byte_level) for s in group]
            found = tuple(0 if kind.columns[i].flexible else max(len(r[i]) for r in rows) for i in range(len(rows[0])))
        widths = found if not widths else tuple(max(a, b) for a, b in zip(widths, found))
    return widths


# -- the merge kinds (bpe_engine.training.merge_kinds) ----------------------------------------------
def merge_row(step: MergeStep, *, byte_level: bool) -> tuple[str, ...]:
    label = merge_label(step.left, step.right, step.new, byte_level=byte_level)
    tie = tie_mark(step.why)
    number = f"{step.rank + 1:,}"
    if step.score is not None:
        return number, label, f"{step.score:.4g}{tie}", f"{step.count:,}", f"{step.words_changed:,}"
    return number, label, f"{step.count:,}{tie}", f"{step.words_changed:,}"


def merge_title(step: MergeStep, *, byte_level: bool) -> str:
    return f"{merge_number(step.rank)}: {merge_label(step.left, step.right, step.new, byte_level=byte_level)}"


def merge_widths(merges: Sequence[MergeStep], *, byte_level: bool) -> tuple[int, ...]:  # noqa: ARG001 - the flexible column is not measured
    count = len(f"{max(s.count for s in merges):,}") + len(TIE_MARK)
    words = len(f"{max(s.words_changed for s in merges):,}")
    number = len(f"{max(s.rank for s in merges) + 1:,}")
    if merges[0].score is not None:
        score = max(len(f"{s.score:.4g}") for s in merges if s.score is not None) + len(TIE_MARK)
        return number, 0, score, count, words
    return number, 0, count, words


__all__ = ["TIE_MARK", "Column", "column_widths", "columns_for", "merge_row", "merge_title", "merge_widths", "row_of", "start_row", "tie_mark", "title_of"]
