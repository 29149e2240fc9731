"""PickyBPE's steps: a merge (as in BPE), a split with its why, a restore.

A merge is a :class:`~bpe_engine.training.steps.MergeStep` (kind ``merge``, as BPE's); after it,
each of its two parts may be removed -- a :class:`SplitStep` that says why: the part's
intersection-over-self against τ and the counts behind it. A merge that makes a removed token again
is a :class:`RestoreStep`: the merge itself, and when the token was removed. A split's or restore's
``rank`` is its place among all events (1.3.1's event list); a merge's ``rank`` counts merges only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, TypeAlias

from ..steps import MergeStep, StepWhy


@dataclass(frozen=True, slots=True)
class SplitStep:
    """A token removed after a merge it was a part of, and split back into its parts.

    ``ios`` = ``used / (left + used)``: ``used`` is the child's frequency (or the pair's, with
    ``ios_frequency="pair"``) and ``left`` what the token still occurs on its own. Its ``left``
    occurrences are rewritten as ``parts`` in ``words_changed`` words. ``why`` holds the IoS and
    the sentence that says it (:func:`split_why`).
    """

    kind: ClassVar[str] = "split"
    rank: int
    token: str
    token_id: int
    parts: tuple[str, ...]
    part_ids: tuple[int, ...]
    child: str
    child_id: int
    ios: float
    tau: float
    compare: str
    used: int
    left: int
    words_changed: int
    why: StepWhy


def split_why(token: str, parts: tuple[str, ...], child: str, ios: float, tau: float, compare: str, used: int, left: int) -> StepWhy:
    sign = "≥" if compare == "at-least" else ">"
    note = (
        f"IoS {ios:.3f} {sign} τ {tau:g}: {token!r} is inside {child!r} {used:,} times and on its own {left:,} "
        f"times ({used:,} / {used + left:,}); split into " + " + ".join(repr(p) for p in parts)
    )
    return StepWhy("IoS", ios, note=note)


@dataclass(frozen=True, slots=True)
class RestoreStep:
    """A merge that made a removed token again: it is present once more (same id). ``merge`` is the
    merge itself; ``removed_at`` the event number of the split that had removed it."""

    kind: ClassVar[str] = "restore"
    rank: int
    merge: MergeStep
    removed_at: int
    why: StepWhy


def restore_why(merge: MergeStep, removed_at: int) -> StepWhy:
    base = merge.why or StepWhy("count", merge.count)
    note = f"{merge.left!r} + {merge.right!r} makes {merge.new!r} again, removed at step {removed_at + 1:,}: it is back in the vocabulary"
    return replace(base, note=note)


PickyEvent: TypeAlias = "MergeStep | RestoreStep | SplitStep"
"""A merge is a plain :class:`MergeStep` (kind ``merge``), as BPE's."""
