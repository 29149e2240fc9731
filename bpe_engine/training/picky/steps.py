"""PickyBPE's steps: a merge (as in BPE), a split with its why, a restore.

A merge is a :class:`~bpe_engine.training.steps.MergeStep`; after it, each of its two parts may be
removed -- a :class:`SplitStep` that says why: the part's intersection-over-self against τ and the
counts behind it. A merge that makes a removed token again is a :class:`RestoreStep`: the merge
itself, and when the token was removed. ``rank`` numbers the events in order, merges and splits
alike (1.3.1's event list); ``merge.rank`` counts merges only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from ..steps import MergeStep


@dataclass(frozen=True, slots=True)
class SplitStep:
    """A token removed after a merge it was a part of, and split back into its parts.

    ``ios`` = ``used / (left + used)``: ``used`` is the child's frequency (or the pair's, with
    ``ios_frequency="pair"``) and ``left`` what the token still occurs on its own. Its ``left``
    occurrences are rewritten as ``parts`` in ``words_changed`` words.
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

    def why(self) -> str:
        """The sentence a step list shows."""
        sign = "≥" if self.compare == "at-least" else ">"
        return (
            f"IoS {self.ios:.3f} {sign} τ {self.tau:g}: {self.token!r} is inside {self.child!r} {self.used:,} times and on "
            f"its own {self.left:,} times ({self.used:,} / {self.used + self.left:,}); split into "
            + " + ".join(repr(p) for p in self.parts)
        )


@dataclass(frozen=True, slots=True)
class RestoreStep:
    """A merge that made a removed token again: it is present once more (same id)."""

    kind: ClassVar[str] = "restore"
    rank: int
    merge: MergeStep
    removed_at: int
    """The event rank of the split that had removed it."""

    def why(self) -> str:
        m = self.merge
        return f"{m.left!r} + {m.right!r} makes {m.new!r} again, removed at step {self.removed_at:,}: it is back in the vocabulary"


@dataclass(frozen=True, slots=True)
class PickyMerge:
    """An ordinary merge in the event list (``rank`` is the event's place)."""

    kind: ClassVar[str] = "merge"
    rank: int
    merge: MergeStep


PickyEvent: TypeAlias = "PickyMerge | RestoreStep | SplitStep"
