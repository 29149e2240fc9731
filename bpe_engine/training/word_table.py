"""The words table: each distinct word with its count and its current symbols, and the one
operation that changes it -- :meth:`Words.merge`, which fuses a pair and returns the pair-count
changes.

Everything that segments a corpus merge by merge runs on this table: the BPE trainer, the
WordPiece trainer, the explorer's :class:`~bpe_engine.explore.stepper.Stepper` and the replay of a loaded
tokenizer's merges. Only the naive trainer (:mod:`bpe_engine.training.naive_bpe`) keeps its own
plain loop, on purpose: it is the oracle this code is tested against.

Representation. A symbol is a token id stored as one character, ``chr(id)``; a word is the string
of its symbols and a pair the two-character string of its ids. One ``str`` per word is compact,
the string methods find and fuse a pair left to right in C (``in`` and ``str.partition`` are the
cheapest calls: no argument parsing), pair strings hash fast, and comparing two pair strings
compares ``(left_id, right_id)``. Ids must stay below :data:`MAX_SYMBOL_ID`.

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

from collections import defaultdict
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
        occurrences: defaultdict[str, list[int]] = defaultdict(list)  # pair -> a word index per occurrence
        for i, w in enumerate(self.symbols):
            for key in map(str.__add__, w[:-1], w[1:]):
                occurrences[key].append(i)
        weight = self.counts.__getitem__
        counts = {key: sum(map(weight, found)) for key, found in occurrences.items()}
        where = {key: list(dict.fromkeys(found)) for key, found in occurrences.items()}
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
        # neighbour symbol -> the words where it stands next to an occurrence, once per occurrence
        lefts: defaultdict[str, list[int]] = defaultdict(list)
        rights: defaultdict[str, list[int]] = defaultdict(list)
        changed: list[int] = []
        repeated = 0  # weighted occurrences beyond the first, in words holding the pair several times
        for i in where:
            w = words[i]
            if pair not in w:
                continue  # a stale index entry: an earlier merge took the pair from this word
            head, _, tail = w.partition(pair)  # METH_O: no argument parsing, unlike str.find
            if head:
                lefts[head[-1]].append(i)
            if tail:
                rights[tail[0]].append(i)
                if pair in tail:  # rare: the pair again in this word
                    repeated += _more_occurrences(w, pair, new, len(head) + 2, lefts, rights, i) * counts[i]
                    words[i] = w.replace(pair, new)
                    changed.append(i)
                    continue
            words[i] = head + new + tail
            changed.append(i)
        occurrences = sum(map(counts.__getitem__, changed)) + repeated
        return _summed(pair, new, changed, occurrences, counts, lefts, rights, lengths, max_length, bool(repeated))

    def merge_ids(self, left: int, right: int, new: int, where: Iterable[int] | None = None) -> Merge:
        """:meth:`merge` with ids, over every word unless ``where`` is given (tests and docs)."""
        return self.merge(chr(left) + chr(right), chr(new), range(len(self)) if where is None else where)


def index_formed_pairs(index: dict[str, set[int]], merge: Merge) -> None:
    """Add the words where each gained pair was formed to a pair -> words index (kept by the
    callers that fuse every occurrence of a pair: the WordPiece trainer, the stepper)."""
    for key, words in merge.formed_in.items():
        add_to_index(index, key, words)


def add_to_index(index: dict[str, set[int]], pair: str, words: Iterable[int]) -> None:
    """Add ``words`` to ``pair``'s bucket of a pair -> words index (made if it has none)."""
    found = index.get(pair)
    if found is None:
        index[pair] = set(words)
    else:
        found.update(words)


def _more_occurrences(
    w: str, pair: str, new: str, end: int, lefts: dict[str, list[int]], rights: dict[str, list[int]], i: int
) -> int:
    """Record the neighbours of the occurrences after the first (which ends at ``end``); how many."""
    more = 0
    j = w.find(pair, end)
    while j >= 0:
        more += 1
        lefts[new if j == end else w[j - 1]].append(i)
        end = j + 2
        if end < len(w):
            rights[w[end]].append(i)
        j = w.find(pair, end)
    return more


def _summed(
    pair: str,
    new: str,
    changed: list[int],
    occurrences: int,
    counts: list[int],
    lefts: dict[str, list[int]],
    rights: dict[str, list[int]],
    lengths: Sequence[int] | None,
    max_length: int | None,
    repeats: bool,
) -> Merge:
    """Turn the neighbours of one merge's occurrences into pair-count changes."""
    lost: dict[str, int] = {}
    gained: dict[str, int] = {}
    formed_in: dict[str, tuple[int, ...]] = {}
    limit = None if max_length is None or lengths is None else max_length - lengths[ord(new)]
    sizes: Sequence[int] = () if lengths is None else lengths  # read only when limit is set, so lengths was given
    weight = counts.__getitem__
    left, right = pair[0], pair[1]
    for sym, words in lefts.items():  # (sym, left) -> (sym, new)
        n = sum(map(weight, words))
        key = sym + left
        lost[key] = lost.get(key, 0) + n
        if limit is None or sizes[ord(sym)] < limit:
            key = sym + new
            gained[key] = n
            formed_in[key] = tuple(dict.fromkeys(words)) if repeats else tuple(words)
    for sym, words in rights.items():  # (right, sym) -> (new, sym)
        n = sum(map(weight, words))
        key = right + sym
        lost[key] = lost.get(key, 0) + n
        if limit is None or sizes[ord(sym)] < limit:
            key = new + sym
            old = formed_in.get(key)
            if old is None:
                gained[key] = n
                formed_in[key] = tuple(dict.fromkeys(words)) if repeats else tuple(words)
            else:  # (new, new) is formed from both sides
                gained[key] += n
                formed_in[key] = tuple(sorted({*old, *words}))
    return Merge(pair, new, changed, occurrences, lost, gained, formed_in)
