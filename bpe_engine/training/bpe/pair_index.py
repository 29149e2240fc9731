"""The pair index: every pair's count, and a lazy heap that finds the best pair in O(log n).

Built once from the words table (:meth:`bpe_engine.training.word_table.Words.count_pairs`, HF's step 4), then
kept up to date from what each merge reports (:meth:`PairIndex.apply`): the corpus is never
recounted. Which pair is "best" among equal counts, and whether a popped heap entry is still
current, is the tie-break rule's business (:mod:`.tie_breaks`).

Two kinds of bookkeeping, chosen by the rule's ``fuses_all``:

* HF's (``hf``): each heap entry carries the words where its pair was formed; there is no
  pair -> words table, and a merged pair's count is left as it is.
* exhaustive (``lexicographic``, ``greatest``, ``first-seen``): ``where`` maps every pair to the words that may
  hold it (ascending; a superset, pruned as it is read), a merge takes all of them, and the
  merged pair's count drops to 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from heapq import heapify, heappop, heappush

from ..steps import TIES_COUNTED, TIES_LISTED, Contest, ContestTally
from ..word_table import Merge
from .tie_breaks import Entry, TieBreakRule


class PairIndex:
    """Pair -> weighted count, with a lazy max-heap ordered by ``rule``."""

    def __init__(self, counts: dict[str, int], where: dict[str, list[int]], rule: TieBreakRule) -> None:
        self.counts = counts
        self.rule = rule
        self.where: dict[str, list[int]] = where if rule.fuses_all else {}
        entries = (rule.entry(counts[pair], pair, () if rule.fuses_all else tuple(lst)) for pair, lst in where.items())
        # Word lists in entries are tuples: the garbage collector stops tracking tuples of ints,
        # so its passes do not walk hundreds of thousands of them.
        self.heap: list[Entry] = [e for e in entries if e is not None]
        heapify(self.heap)

    def pop_best(self) -> tuple[int, str, Sequence[int]] | None:
        """Pop until an entry is current: ``(count, pair, words to merge in)``, None when empty."""
        heap, counts, rule = self.heap, self.counts, self.rule
        while heap:
            top = heappop(heap)
            pair = rule.pair_of(top)
            count = counts.get(pair, 0)
            if rule.is_current(top, count):
                best, words = rule.popped(top)
                if rule.fuses_all:
                    words = self.where.pop(pair, ())
                return best, pair, words
            fresh = rule.refresh(top, count)
            if fresh is not None:
                heappush(heap, fresh)
        return None

    def contest(self, winner: str, count: int, *, listed: int = TIES_LISTED, counted: int = TIES_COUNTED) -> Contest:
        """The runner-up of ``winner`` (just popped with ``count``) and the pairs tied with it.

        The next best pairs are popped as :meth:`pop_best` would pop them -- stale entries refreshed
        or dropped, exactly as the merge loop does when it meets them -- and pushed back unchanged, so
        the merges that follow are those of a trainer that never asks (heap entries are totally
        ordered tuples: which entries are in the heap decides the pops, not where they sit).
        """
        heap, counts, rule = self.heap, self.counts, self.rule
        taken: list[Entry] = []
        tally = ContestTally(winner, count, listed, counted)
        while heap:
            top = heappop(heap)
            pair = rule.pair_of(top)
            now = counts.get(pair, 0)
            if not rule.is_current(top, now):
                fresh = rule.refresh(top, now)
                if fresh is not None:
                    heappush(heap, fresh)
                continue
            taken.append(top)
            value = rule.popped(top)[0]
            if pair not in tally.seen and value < 1:
                break  # only pairs that no longer occur are left
            if tally.offer(pair, value):
                break
        for entry in taken:
            heappush(heap, entry)
        return tally.result()

    def apply(self, merge: Merge) -> None:
        """Take one merge's pair-count changes in, and push an entry for every pair it formed."""
        counts = self.counts
        get = counts.get
        for pair, n in merge.lost.items():
            counts[pair] = get(pair, 0) - n
        for pair, n in merge.gained.items():
            counts[pair] = get(pair, 0) + n
        heap, rule = self.heap, self.rule
        if not rule.fuses_all:
            for pair, words in merge.formed_in.items():
                entry = rule.entry(counts[pair], pair, words)
                if entry is not None:
                    heappush(heap, entry)
            return
        counts[merge.pair] = 0  # every occurrence was fused
        where = self.where
        for pair, words in merge.formed_in.items():
            old = where.get(pair)
            if old:
                old.extend(words)
                if old[-len(words) - 1] >= words[0]:  # a reused id formed the pair again: re-sort
                    old[:] = sorted(set(old))
            else:
                where[pair] = list(words)
            entry = rule.entry(counts[pair], pair, ())  # fuses_all: the entry carries no words, ``where`` has them
            if entry is not None:
                heappush(heap, entry)
