"""The step kinds of the merge trainers, declared once for every trainer that merges.

BPE makes ``merge`` steps (decided by the pair's count), WordPiece ``scored merge`` steps (by its
score); a trainer that resumes or extends BPE makes the same ``merge`` steps and declares this same
kind. The rows and titles live with the step list (:mod:`bpe_engine.explore.step_rows`); this module
only says where, so declaring a trainer imports nothing.
"""

from __future__ import annotations

from .registry import Column, Ref, StepKind

_ROWS = "bpe_engine.explore.step_rows"
NUMBER = Column("#")
"""The first column of every step list: the step's number, from 1."""

MERGE = StepKind(
    "merge",
    (NUMBER, Column("merge", False, True), Column("count"), Column("words")),
    row=Ref(_ROWS, "merge_row"),
    title=Ref(_ROWS, "merge_title"),
    widths=Ref(_ROWS, "merge_widths"),
    progress="merging",
)
SCORED_MERGE = StepKind(
    "scored merge",
    (NUMBER, Column("merge", False, True), Column("score"), Column("count"), Column("words")),
    row=Ref(_ROWS, "merge_row"),
    title=Ref(_ROWS, "merge_title"),
    widths=Ref(_ROWS, "merge_widths"),
    progress="merging",
)

__all__ = ["MERGE", "NUMBER", "SCORED_MERGE"]
