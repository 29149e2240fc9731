"""The words table: each distinct word with its count and its current symbols, and the one
operation that changes it -- :meth:`Words.merge`, which fuses a pair and returns the pair-count
changes.

Everything that segments a corpus merge by merge runs on this table: the BPE trainer, the
WordPiece trainer, the explorer's :class:`~bpe_engine.stepper.Stepper` and the replay of a loaded
tokenizer's merges. Only the naive trainer (:mod:`bpe_engine.reference_trainer`) keeps its own
plain loop, on purpose: it is the oracle this code is tested against.

Representation. A symbol is a token id stored as one character, ``chr(id)``; a word is the string
of its symbols and a pair the two-character string of its ids. One ``str`` per word is compact,
``str.find`` / ``str.replace`` fuse a pair left to right in C, pair strings hash fast, and comparing
two pair strings compares ``(left_id, right_id)``. Ids must stay below :data:`MAX_SYMBOL_ID`.

What a merge reports is Hugging Face's ``Word::merge``, summed over the words it touches. For
every occurrence of ``left right`` (left to right, never overlapping), the left neighbour ``p``
turns ``(p, left)`` into ``(p, new)`` and the right neighbour ``n`` turns ``(right, n)`` into
``(new, n)``. The left neighbour is ``new`` itself when the previous occurrence ended right there
(HF's ``symbols[i - 1]`` after the in-place merge); the right one is always the original symbol.
Merging ``l l`` in ``hello``:

>>> words = Words.from_ids([[0, 1, 2, 2, 3]], [1])  # h=0 e=1 l=2 o=3
>>> words.merge_ids(2, 2, 4).deltas()  # ll=4: (e,l) -1, (e,ll) +1, (l,o) -1, (ll,o) +1
{(1, 2): -1, (1, 4): 1, (2, 3): -1, (4, 3): 1}
>>> words.ids(0)
[0, 1, 4, 3]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MAX_SYMBOL_ID = 0x10FFFF
"""Symbols are characters, so an id must be a code point."""


@dataclass(slots=True)
class Merge:
    """What one :meth:`Words.merge` did.

    ``changed``: the words rewritten, in the order visited. ``occurrences``: tokens fused, weighted
    by word counts (the corpus lost exactly that many tokens). ``lost`` / ``gained``: weighted
    pair-count changes (a pair may be in both: ``(new, left)`` between two occurrences of
    ``left right``). ``formed_in``: for each gained pair, the words where it was formed, ascending
    when the words were visited in ascending order. Gained pairs whose merged length would reach
    ``max_length`` are left out of ``gained`` and ``formed_in``, as HF leaves them uncounted.
    """

    pair: str
    new: str
    changed: list[int]
    occurrences: int
    lost: dict[str, int]
    gained: dict[str, int]
    formed_in: dict[str, tuple[int, ...]]

    @property
    def pair_count(self) -> int:
        """The pair's weighted count just before the merge, overlaps included (``a a a`` holds
        ``(a, a)`` twice but fuses once; the second one shows up as a lost neighbour pair)."""
        return self.occurrences + self.lost.get(self.pair, 0)

    def deltas(self) -> dict[tuple[int, int], int]:
        """The net change of every pair touched, as ``(left_id, right_id) -> delta``, sorted."""
        net: dict[str, int] = {}
        for key, n in self.lost.items():
            net[key] = net.get(key, 0) - n
        for key, n in self.gained.items():
            net[key] = net.get(key, 0) + n
        return {(ord(k[0]), ord(k[1])): d for k, d in sorted(net.items()) if d}


class Words:
    """Distinct words as symbol strings (``chr(id)`` per symbol) with their counts.

    Word indices are stable: a merge rewrites ``symbols[i]`` in place and never reorders.
    """

    __slots__ = ("symbols", "counts")

    def __init__(self, symbols: list[str], counts: list[int]) -> None:
        if len(symbols) != len(counts):
            raise ValueError("one count per word")
        self.symbols = symbols
        self.counts = counts

    @classmethod
    def from_ids(cls, words: Iterable[Iterable[int]], counts: Iterable[int]) -> Words:
        """A table from words given as id sequences (tests, docs and small tools)."""
        return cls(["".join(map(chr, w)) for w in words], list(counts))

    def __len__(self) -> int:
        return len(self.symbols)

    def ids(self, index: int) -> list[int]:
        """Word ``index`` as token ids."""
        return list(map(ord, self.symbols[index]))

    def copy(self) -> Words:
        return Words(list(self.symbols), list(self.counts))

    def count_pairs(self) -> tuple[dict[str, int], dict[str, list[int]]]:
        """Every adjacent pair's weighted count, and the words it occurs in (ascending, each once).

        >>> Words.from_ids([[0, 0, 0], [1, 0]], [2, 5]).count_pairs()
        ({'\\x00\\x00': 4, '\\x01\\x00': 5}, {'\\x00\\x00': [0], '\\x01\\x00': [1]})
        """
        counts: dict[str, int] = {}
        where: dict[str, list[int]] = {}
        get = counts.get
        word_counts = self.counts
        for i, w in enumerate(self.symbols):
            c = word_counts[i]
            for key in map(str.__add__, w[:-1], w[1:]):
                counts[key] = get(key, 0) + c
                lst = where.get(key)
                if lst is None:
                    where[key] = [i]
                elif lst[-1] != i:
                    lst.append(i)
        return counts, where

    def merge(
        self,
        pair: str,
        new: str,
        where: Iterable[int],
        *,
        lengths: Sequence[int] | None = None,
        max_length: int | None = None,
    ) -> Merge:
        """Fuse ``pair`` into the symbol ``new`` in the words of ``where`` and report the changes.

        ``where`` may hold words without the pair (a stale index): they are skipped. With
        ``max_length``, a gained pair counts only if its merged length (``lengths[id]`` summed) is
        below it -- HF's ``word.rs`` rule; the lost pair is uncounted all the same.
        """
        words, counts = self.symbols, self.counts
        # neighbour symbol -> [summed count, word index, word index, ...] (each index once)
        lefts: dict[str, list[int]] = {}
        rights: dict[str, list[int]] = {}
        lefts_get, rights_get = lefts.get, rights.get
        changed: list[int] = []
        occurrences = 0
        for i in where:
            w = words[i]
            j = w.find(pair)
            if j < 0:
                continue
            c = counts[i]
            last = len(w) - 2
            end = -1
            fused = 0
            while j >= 0:
                if j:
                    p = new if j == end else w[j - 1]
                    e = lefts_get(p)
                    if e is None:
                        lefts[p] = [c, i]
                    else:
                        e[0] += c
                        if e[-1] != i:
                            e.append(i)
                end = j + 2
                if j < last:
                    nx = w[end]
                    e = rights_get(nx)
                    if e is None:
                        rights[nx] = [c, i]
                    else:
                        e[0] += c
                        if e[-1] != i:
                            e.append(i)
                fused += 1
                j = w.find(pair, end)
            words[i] = w.replace(pair, new)
            changed.append(i)
            occurrences += fused * c
        return _summed(pair, new, changed, occurrences, lefts, rights, lengths, max_length)

    def merge_ids(self, left: int, right: int, new: int, where: Iterable[int] | None = None) -> Merge:
        """:meth:`merge` with ids, over every word unless ``where`` is given (tests and docs)."""
        return self.merge(chr(left) + chr(right), chr(new), range(len(self)) if where is None else where)


def index_formed_pairs(index: dict[str, set[int]], merge: Merge) -> None:
    """Add the words where each gained pair was formed to a pair -> words index (kept by the
    callers that fuse every occurrence of a pair: the WordPiece trainer, the stepper)."""
    for key, words in merge.formed_in.items():
        found = index.get(key)
        if found is None:
            index[key] = set(words)
        else:
            found.update(words)


def _summed(
    pair: str,
    new: str,
    changed: list[int],
    occurrences: int,
    lefts: dict[str, list[int]],
    rights: dict[str, list[int]],
    lengths: Sequence[int] | None,
    max_length: int | None,
) -> Merge:
    """Turn the per-neighbour sums of one merge into pair-count changes."""
    lost: dict[str, int] = {}
    gained: dict[str, int] = {}
    formed_in: dict[str, tuple[int, ...]] = {}
    limit = None if max_length is None or lengths is None else max_length - lengths[ord(new)]
    left, right = pair[0], pair[1]
    for sym, entry in lefts.items():  # (sym, left) -> (sym, new)
        key = sym + left
        lost[key] = lost.get(key, 0) + entry[0]
        if limit is None or lengths[ord(sym)] < limit:  # type: ignore[index]
            key = sym + new
            gained[key] = entry[0]
            formed_in[key] = tuple(entry[1:])
    for sym, entry in rights.items():  # (right, sym) -> (new, sym)
        key = right + sym
        lost[key] = lost.get(key, 0) + entry[0]
        if limit is None or lengths[ord(sym)] < limit:  # type: ignore[index]
            key = new + sym
            old = formed_in.get(key)
            if old is None:
                gained[key] = entry[0]
                formed_in[key] = tuple(entry[1:])
            else:  # (new, new) is formed from both sides
                gained[key] += entry[0]
                formed_in[key] = tuple(sorted({*old, *entry[1:]}))
    return Merge(pair, new, changed, occurrences, lost, gained, formed_in)
