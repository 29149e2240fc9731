"""Tie-break rules: which pair is merged when several have the best count.

A rule is a small strategy object that gives the pair index (:mod:`.pair_index`) two things:

* an **ordering key** -- :meth:`TieBreakRule.entry` builds a heap entry for a pair; the smallest
  entry is the best pair;
* a **freshness check** -- :meth:`TieBreakRule.is_current` says whether a popped entry still
  describes its pair. The heap is lazy: entries are never removed when a count changes; a popped
  entry that went stale is :meth:`refreshed <TieBreakRule.refresh>` and pushed back. This is exact
  as long as an entry's key can only get *worse* while it waits (counts only drop until a merge
  forms the pair anew, and then a new entry is pushed).

and one flag, ``fuses_all``, for the bookkeeping it needs (see the rules below).

``hf`` -- :class:`HfRule`
    the smaller ``(left_id, right_id)``: exactly Hugging Face ``tokenizers``. It also keeps HF's
    bookkeeping to the letter, which is what makes the merge list equal to HF's rank for rank:
    an entry carries the words where its pair was formed, and a merge fuses the pair only there;
    the count of a merged pair is not reset. After an id reuse (``a`` + ``bc`` gives a token that
    ``ab`` + ``c`` already made) a pair may thus be merged in two steps.
    **The u64 quirk** (the only place it lives): HF stores pair counts as signed integers but
    its heap entries as ``u64``, and checks freshness with ``count as u64``. A pair count that
    went negative (possible with HF's bookkeeping after an id reuse) compares as ``count + 2**64``
    -- huge -- so such an entry is taken at once. :func:`u64` reproduces the cast.
``lexicographic`` -- :class:`LexicographicRule`
    the smaller ``(left, right)`` compared by the tokens' bytes (raw bytes for byte-level, UTF-8
    for character-level, which is code point order).
``greatest`` -- :class:`GreatestRule`
    the *greater* ``(left, right)`` by the same bytes: ``max((count, (left_bytes, right_bytes)))``,
    the rule of code that picks the best pair with ``max()`` over tuples of bytes (a widely used
    course's reference trainer). The heap is a min-heap, so the key spells each token's bytes
    backwards in order (:func:`descending`).
``first-seen`` -- :class:`FirstSeenRule`
    the pair met first when scanning the current segmentation: words in order of first
    appearance, pairs left to right -- what minbpe gets from ``max()`` over an insertion-ordered
    dict. A pair's first position (word index, character offset) only moves right and its count
    only drops until a merge forms it anew, so the lazy heap stays exact.

``lexicographic``, ``greatest`` and ``first-seen`` fuse every occurrence of the chosen pair at once (``fuses_all``):
their pair index keeps pair -> words for every pair, like the naive trainer in
:mod:`bpe_engine.training.naive_bpe`, which implements every rule as a plain ``min``/``max``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from ...choices import TIE_BREAKS
from ..word_table import Words

Entry = tuple[Any, ...]
"""A heap entry: the rule's ordering key first; :meth:`TieBreakRule.pair_of` reads the pair back."""

_U64 = 1 << 64
_COMPLEMENT = bytes(range(255, -1, -1))
_PAST_THE_END = "\u0100"  # sorts after every complemented byte (U+0000-U+00FF)
_ID_BITS = 21  # ids are below 2**21 (bpe_engine.training.word_table.MAX_SYMBOL_ID)
_ID_PAIR_MASK = (1 << (2 * _ID_BITS)) - 1


def tie_rule(name: str) -> str:
    """How rule ``name`` chose among equal counts, in words (the step's ``why.rule``)."""
    return f"{name}: {next((c.help for c in TIE_BREAKS if c.value == name), name)}"


def u64(count: int) -> int:
    """HF's ``count as u64``: a negative count wraps around to ``count + 2**64``."""
    return count if count >= 0 else count + _U64


def descending(data: bytes) -> str:
    """A key that sorts byte strings in *reverse* order: ``descending(x) < descending(y)`` exactly
    when ``x > y``.

    Each byte ``b`` becomes ``chr(255 - b)``, and a last character above them all stands for the
    end, so a string sorts before its own prefixes (``b"ab" > b"a"``):

    >>> sorted([b"a", b"ab", b"b", b""], key=descending)
    [b'b', b'ab', b'a', b'']
    """
    return data.translate(_COMPLEMENT).decode("latin-1") + _PAST_THE_END


class TieBreakRule(ABC):
    """Ordering key and freshness check of one tie-break rule (module docstring)."""

    name: ClassVar[str]
    fuses_all: ClassVar[bool]
    """True: a merge fuses every occurrence (pair -> words index, count reset to 0). False: HF's
    bookkeeping (the words travel in the heap entries)."""

    @abstractmethod
    def entry(self, count: int, pair: str, words: tuple[int, ...]) -> Entry | None:
        """A heap entry for ``pair`` with ``count``; None if the pair cannot be merged now."""

    @abstractmethod
    def pair_of(self, entry: Entry) -> str: ...

    @abstractmethod
    def is_current(self, entry: Entry, count: int) -> bool:
        """Whether ``entry`` still describes its pair, whose current count is ``count``."""

    @abstractmethod
    def refresh(self, entry: Entry, count: int) -> Entry | None:
        """A fresh entry for a stale one (None: drop it, the pair is gone)."""

    @abstractmethod
    def popped(self, entry: Entry) -> tuple[int, Sequence[int]]:
        """``(count, words)`` of a current entry: the count the merge is made with, and where
        (``fuses_all`` rules return ``()``: the pair index knows the words)."""


class HfRule(TieBreakRule):
    """``hf``: smaller ``(left_id, right_id)`` first; HF's bookkeeping and u64 quirk.

    The key packs ``(-count, left_id, right_id)`` into one int: one integer comparison per heap
    step instead of a tuple walk.
    """

    name = "hf"
    fuses_all = False

    def entry(self, count: int, pair: str, words: tuple[int, ...]) -> Entry | None:
        if count <= 0:
            return None
        return ((-count << 42) | (ord(pair[0]) << _ID_BITS) | ord(pair[1]), pair, words)

    def pair_of(self, entry: Entry) -> str:
        return entry[1]

    def is_current(self, entry: Entry, count: int) -> bool:
        return -(entry[0] >> 42) == u64(count)

    def refresh(self, entry: Entry, count: int) -> Entry:
        # HF pushes the stale entry back with the current count and its own word list.
        return ((-u64(count) << 42) | (entry[0] & _ID_PAIR_MASK), entry[1], entry[2])

    def popped(self, entry: Entry) -> tuple[int, Sequence[int]]:
        return -(entry[0] >> 42), entry[2]


class LexicographicRule(TieBreakRule):
    """``lexicographic``: smaller ``(left bytes, right bytes)`` first."""

    name = "lexicographic"
    fuses_all = True

    def __init__(self, token_bytes: Callable[[int], bytes]) -> None:
        self._bytes = token_bytes

    def entry(self, count: int, pair: str, words: tuple[int, ...] = ()) -> Entry | None:
        if count <= 0:
            return None
        return (-count, self._key(ord(pair[0])), self._key(ord(pair[1])), pair)

    def _key(self, token_id: int) -> bytes | str:
        return self._bytes(token_id)

    def pair_of(self, entry: Entry) -> str:
        return entry[-1]

    def is_current(self, entry: Entry, count: int) -> bool:
        return -entry[0] == count > 0

    def refresh(self, entry: Entry, count: int) -> Entry | None:
        return self.entry(count, entry[-1])

    def popped(self, entry: Entry) -> tuple[int, Sequence[int]]:
        return -entry[0], ()


class GreatestRule(LexicographicRule):
    """``greatest``: greater ``(left bytes, right bytes)`` first -- ``max()`` over byte pairs."""

    name = "greatest"

    def _key(self, token_id: int) -> bytes | str:
        return descending(self._bytes(token_id))


class FirstSeenRule(TieBreakRule):
    """``first-seen``: the pair whose first occurrence comes first (word index, character offset).

    ``where`` is the pair index's pair -> words table (ascending), ``words`` the words table and
    ``lengths`` each id's length in characters.
    """

    name = "first-seen"
    fuses_all = True

    def __init__(self, where: dict[str, list[int]], words: Words, lengths: Sequence[int]) -> None:
        self._where, self._words, self._lengths = where, words, lengths

    def entry(self, count: int, pair: str, words: tuple[int, ...] = ()) -> Entry | None:
        first = self._first(pair) if count > 0 else None
        if first is None:
            return None
        return (-count, first[0], first[1], pair)

    def pair_of(self, entry: Entry) -> str:
        return entry[-1]

    def is_current(self, entry: Entry, count: int) -> bool:
        return -entry[0] == count > 0 and self._first(entry[-1]) == (entry[1], entry[2])

    def refresh(self, entry: Entry, count: int) -> Entry | None:
        return self.entry(count, entry[-1])

    def popped(self, entry: Entry) -> tuple[int, Sequence[int]]:
        return -entry[0], ()

    def _first(self, pair: str) -> tuple[int, int] | None:
        """(word index, character offset) of the pair's first occurrence; prunes ``where``.

        The offset is in characters (symbol lengths summed), so it does not move when an earlier
        part of the word is merged: a pair's first position only ever moves right.
        """
        lst = self._where.get(pair)
        if not lst:
            return None
        symbols, lengths = self._words.symbols, self._lengths
        for at, wi in enumerate(lst):
            w = symbols[wi]
            j = w.find(pair)
            if j >= 0:
                del lst[:at]
                return wi, sum(lengths[ord(ch)] for ch in w[:j])
        lst.clear()
        return None
