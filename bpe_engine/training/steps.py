"""Why a training step won: the deciding quantity, the runner-up, and the tie and the rule that broke it.

Every trainer's steps carry a :class:`StepWhy`: a BPE merge was chosen by its pair's *count*, a
WordPiece merge by its *score* count(ab) / (count(a) count(b)), a Unigram pruning round kept the
pieces whose *loss* was highest, an EM step re-estimated the model at a *log-likelihood*. ``runner_up`` is the best candidate that lost; when it has the
same value as the winner the step was a tie, ``tied`` lists the first tied candidates in the
order the rule put them (``tied_total`` counts them, up to :data:`TIES_COUNTED`) and ``rule`` says
what decided.

The merge trainers read the runner-up and the ties off their lazy heap (the BPE pair index pops the
next entries as its merge loop would and pushes them back; WordPiece walks its heap with
:func:`contest` without changing it), so the merges are exactly those of a trainer that never
asks. The naive oracles rank every candidate (:func:`why_of_ranking`); the tests require equal steps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from heapq import heappop, heappush
from operator import attrgetter
from typing import Any, Protocol, TypeAlias

Quantity: TypeAlias = str
"""What decided a step: ``count``, ``score``, ``loss``, ``log-likelihood`` are the built-in trainers'
(:data:`QUANTITIES`); a new trainer may name its own (the step detail prints the name as it is)."""
QUANTITIES: tuple[Quantity, ...] = ("count", "score", "loss", "log-likelihood")
COUNTED: frozenset[Quantity] = frozenset({"count"})
"""Quantities that are whole numbers (shown with thousands separators, not 4 significant digits)."""

TIES_LISTED = 5
"""Tied candidates a step names."""
TIES_COUNTED = TIES_LISTED + 1
"""Tied candidates a step counts: ``tied_total > len(tied)`` reads "and more". Late in a long run
thousands of pairs tie at count 2; counting them all would cost more than the merge (it tripled the
merge loop of 3 MB at 32k merges); naming five and saying "more" costs a few heap operations."""


@dataclass(frozen=True, slots=True)
class StepWhy:
    """Why a step won. Candidates are tuples of tokens in the model's alphabet: a pair for a
    merge, one piece for Unigram. ``rule`` is None when nothing tied. ``note`` says in a sentence
    what the number means where it is no contest between candidates (a Unigram seed or EM step)."""

    quantity: Quantity
    value: float
    runner_up: tuple[str, ...] | None = None
    runner_up_value: float | None = None
    tied: tuple[tuple[str, ...], ...] = ()
    tied_total: int = 0
    rule: str | None = None
    note: str = ""

    @property
    def is_tie(self) -> bool:
        return self.tied_total > 0

    @property
    def margin(self) -> float | None:
        """How far ahead of the runner-up the winner was (None without a runner-up)."""
        return None if self.runner_up_value is None else self.value - self.runner_up_value

    def __reduce__(self) -> tuple[type[StepWhy], tuple[object, ...]]:
        """Pickled as a call to the class, like the steps that carry it (see MergeStep)."""
        return (StepWhy, (self.quantity, self.value, self.runner_up, self.runner_up_value, self.tied, self.tied_total, self.rule, self.note))


def why_of_ranking(quantity: Quantity, ranked: Sequence[tuple[tuple[str, ...], float]], rule: str | None) -> StepWhy:
    """The :class:`StepWhy` of a whole ranking, best first -- how the naive oracles, which rank every
    candidate, say it (``rule`` is kept only when the winner tied).

    >>> why_of_ranking("count", [(("a", "b"), 3), (("b", "c"), 3), (("c", "d"), 1)], "hf").tied_total
    1
    """
    (_, value), rest = ranked[0], ranked[1:]
    tied = [candidate for candidate, v in rest if v == value]
    runner_up = rest[0] if rest else None
    return StepWhy(
        quantity,
        value,
        runner_up[0] if runner_up else None,
        runner_up[1] if runner_up else None,
        tuple(tied[:TIES_LISTED]),
        min(len(tied), TIES_COUNTED),
        rule if tied else None,
    )


@dataclass(frozen=True, slots=True)
class Contest:
    """What :func:`contest` found: the runner-up ``(pair, value)`` and the tied pairs."""

    runner_up: tuple[str, float] | None
    tied: tuple[str, ...]
    tied_total: int


class ContestTally:
    """The runner-up and the ties of ``winner``, from candidates offered best first: the one tally
    behind every trainer's contest (BPE's pair index walks its heap its own way, WordPiece's
    :func:`contest` another). Several candidates of one pair count once."""

    def __init__(self, winner: str, winner_value: float, listed: int = TIES_LISTED, counted: int = TIES_COUNTED) -> None:
        self.winner_value, self.listed, self.counted = winner_value, listed, counted
        self.seen: set[str] = {winner}
        self.runner_up: tuple[str, float] | None = None
        self.tied: list[str] = []
        self.tied_total = 0

    def offer(self, pair: str, value: float) -> bool:
        """Count the next best candidate; True when no later one can change the result."""
        if pair in self.seen:
            return False
        self.seen.add(pair)
        if self.runner_up is None:
            self.runner_up = (pair, value)
        if value != self.winner_value:
            return True
        self.tied_total += 1
        if len(self.tied) < self.listed:
            self.tied.append(pair)
        return self.tied_total >= self.counted

    def result(self) -> Contest:
        return Contest(self.runner_up, tuple(self.tied), self.tied_total)


def contest(
    heap: Sequence[Any],
    winner: str,
    winner_value: float,
    *,
    current: Callable[[Any], Any | None],
    pair_of: Callable[[Any], str],
    value_of: Callable[[Any], float],
    listed: int = TIES_LISTED,
    counted: int = TIES_COUNTED,
) -> Contest:
    """The best candidates after ``winner`` in a lazy min-heap, in the heap's own order, unchanged.

    ``current(entry)`` is the entry as it would be if popped now (its refreshed key), or None when
    it is dead; a stale entry's key is never better than its current one, so an entry may be
    reported once no unread entry's stored key is better. ``value_of`` reads the deciding quantity
    from an entry. Several entries of one pair count once.

    >>> heap = [(-5, "ab"), (-3, "bc"), (-5, "cd"), (-3, "de")]
    >>> c = contest(heap, "ab", 5, current=lambda e: e, pair_of=lambda e: e[1], value_of=lambda e: -e[0])
    >>> c.runner_up, c.tied, c.tied_total
    (('cd', 5), ('cd',), 1)
    """
    frontier: list[tuple[Any, int]] = [(heap[0], 0)] if heap else []
    ready: list[Any] = []
    tally = ContestTally(winner, winner_value, listed, counted)
    while frontier or ready:
        if ready and (not frontier or ready[0] <= frontier[0][0]):
            entry = heappop(ready)
            if tally.offer(pair_of(entry), value_of(entry)):
                break
            continue
        stored, i = heappop(frontier)
        for child in (2 * i + 1, 2 * i + 2):
            if child < len(heap):
                heappush(frontier, (heap[child], child))
        if pair_of(stored) in tally.seen:
            continue
        now = current(stored)
        if now is not None:
            heappush(ready, now)
    return tally.result()


@dataclass(frozen=True, slots=True)
class MergeStep:
    """One merge as the trainer yields it (BPE and WordPiece share this shape).

    ``rank`` is 0-based: the first merge has rank 0. Token strings are in the model's own
    alphabet (GPT-2 byte characters such as ``Ġ`` for byte-level; characters with ``▁``/``</w>``/
    ``##`` for character-level and WordPiece). ``count`` is the pair's frequency when it was
    merged; ``score`` is WordPiece's count(ab)/(count(a)*count(b)) (``None`` for BPE).
    ``words_changed`` is how many distinct words the merge rewrote; ``occurrences`` is how many
    token pairs it actually fused, weighted by word counts, so the corpus shrinks by exactly that
    many tokens (``count`` can be larger: ``aaa`` holds the pair ``a a`` twice but fuses once).
    Together they give the compression curve without re-encoding the corpus. ``why`` says why this
    pair won (:class:`StepWhy`: the count or score, the runner-up, a tie and the rule that broke it).
    """

    rank: int
    left: str
    right: str
    new: str
    left_id: int
    right_id: int
    new_id: int
    count: int
    words_changed: int
    occurrences: int
    score: float | None = None
    why: StepWhy | None = None

    @property
    def kind(self) -> str:
        """``merge`` (BPE: decided by count) or ``scored merge`` (WordPiece: by score)."""
        return "merge" if self.score is None else "scored merge"

    def __reduce__(self) -> tuple[type[MergeStep], tuple[object, ...]]:
        """Pickled as a call to the class: a child process sends the app thousands of steps a
        second, and unpickling them through the dataclass's generic ``__setstate__`` took 12 ms
        per 3,000 on the app's reader thread, holding the GIL its UI needs (5.5 ms this way)."""
        return (MergeStep, _merge_step_fields(self))


_merge_step_fields = attrgetter(*(f.name for f in fields(MergeStep)))
"""Every field of a :class:`MergeStep`, in order (a tuple, read in C)."""


class TrainingStep(Protocol):
    """One step of any trainer: a frozen, picklable value that names its kind and says why it won.

    ``kind`` names a :class:`~bpe_engine.training.registry.StepKind` a registered trainer declares
    (its step-list columns, its row, its title): a BPE ``merge``, a WordPiece ``scored merge``, a
    Unigram ``seed`` / ``em`` / ``prune`` / ``final`` step -- and whatever kinds a new trainer
    brings (a split, a restore). Consumers render a step by its kind, never by its class.
    """

    @property
    def kind(self) -> str: ...

    @property
    def why(self) -> StepWhy | None: ...


__all__ = [
    "COUNTED",
    "QUANTITIES",
    "TIES_COUNTED",
    "TIES_LISTED",
    "Contest",
    "MergeStep",
    "Quantity",
    "StepWhy",
    "TrainingStep",
    "contest",
    "why_of_ranking",
]
