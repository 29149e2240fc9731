"""A corpus's distinct words segmented by a given merge list, moved one merge at a time.

A trainer chooses its merges; this replays merges chosen elsewhere (a training streaming into
the app, a loaded tokenizer file) over the words of a text. It is the words table of
:mod:`bpe_engine.training.word_table` plus what replaying needs:

* a symbol table -- merges come as token strings, the words table works on ids, so every token
  met gets an id (``chr(id)``) the first time it is seen;
* a pair -> words index to find the words a merge touches. It is a *superset* of the current
  pairs: a merge adds the pairs its new token forms (:attr:`Merge.formed_in
  <bpe_engine.training.word_table.Merge.formed_in>`), drops its own pair (every occurrence is fused), and
  undoing it (:meth:`CorpusSegmentation.unapply`) gives the pair its words back.

>>> seg = CorpusSegmentation([("l", "o", "w"), ("l", "o", "w", "e", "r")], [3, 1])
>>> seg.apply("l", "o", "lo").pair_count, seg.apply("lo", "w", "low").words_changed
(4, 2)
>>> seg.symbols(1)
('low', 'e', 'r')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..errors import ConfigError
from ..training.word_table import MAX_SYMBOL_ID, Merge, Words, add_to_index, index_formed_pairs


@dataclass(frozen=True, slots=True)
class Applied:
    """One merge applied: the words table's :class:`~bpe_engine.training.word_table.Merge` (None when the
    pair occurs nowhere) and, for words that held the new token already before the merge, their
    symbols then (splitting the token again would not restore them)."""

    merge: Merge | None
    kept: dict[int, str]

    @property
    def pair_count(self) -> int:
        return self.merge.pair_count if self.merge is not None else 0

    @property
    def occurrences(self) -> int:
        return self.merge.occurrences if self.merge is not None else 0

    @property
    def words_changed(self) -> int:
        return len(self.merge.changed) if self.merge is not None else 0

    @property
    def changed(self) -> Sequence[int]:
        return self.merge.changed if self.merge is not None else ()


class CorpusSegmentation:
    """Words (as token tuples at the start) with counts, segmented merge by merge."""

    def __init__(self, words: Iterable[Sequence[str]], counts: Sequence[int]) -> None:
        self.tokens: list[str] = []
        self._char: dict[str, str] = {}
        symbol = self.symbol
        initial = ["".join(map(symbol, w)) for w in words]
        if len(initial) != len(counts):
            raise ConfigError("a segmentation needs one count per word")
        self.words = Words(initial, list(counts))
        self.initial: tuple[str, ...] = tuple(initial)
        self._pairs: dict[str, set[int]] = {}
        for wid, w in enumerate(initial):
            self.index(wid, w)

    def symbol(self, token: str) -> str:
        """The token's symbol (its id as a character), made on first sight."""
        ch = self._char.get(token)
        if ch is None:
            if len(self.tokens) > MAX_SYMBOL_ID:
                raise ConfigError(f"more than {MAX_SYMBOL_ID:,} distinct tokens: too many to step through")
            ch = self._char[token] = chr(len(self.tokens))
            self.tokens.append(token)
        return ch

    def symbols(self, wid: int) -> tuple[str, ...]:
        """Word ``wid``'s tokens now."""
        return self.as_tokens(self.words.symbols[wid])

    def as_tokens(self, word: str) -> tuple[str, ...]:
        return tuple(map(self.tokens.__getitem__, map(ord, word)))

    def token_count(self) -> int:
        """Tokens in the corpus now (word lengths weighted by counts)."""
        return sum(len(w) * c for w, c in zip(self.words.symbols, self.words.counts))

    def apply(self, left: str, right: str, new: str) -> Applied:
        """Fuse ``left right`` into ``new`` everywhere, left to right (the trainers' rule)."""
        lc, rc = self._char.get(left), self._char.get(right)
        seen = new in self._char  # else no word holds it yet (two merges can make one string)
        nc = self.symbol(new)
        if lc is None or rc is None:
            return Applied(None, {})
        pair = lc + rc
        bucket = self._pairs.pop(pair, None)  # every occurrence is fused: no word holds it after
        if not bucket:
            return Applied(None, {})
        where = sorted(bucket)
        symbols = self.words.symbols
        kept = {wid: w for wid in where if nc in (w := symbols[wid]) and pair in w} if seen else {}
        merge = self.words.merge(pair, nc, where)
        index_formed_pairs(self._pairs, merge)
        return Applied(merge, kept)

    def unapply(self, pair: str, restored: Iterable[tuple[int, str]]) -> None:
        """Undo the last :meth:`apply` of ``pair``: put each ``(word id, symbols before)`` back.

        Only the pair's own bucket needs restoring: :meth:`apply` dropped nothing else from the
        index, and every word that held the pair was rewritten (so is among ``restored``).
        """
        symbols = self.words.symbols
        wids = []
        for wid, word in restored:
            symbols[wid] = word
            wids.append(wid)
        if wids:
            add_to_index(self._pairs, pair, wids)

    def restart(self, emptied: Iterable[tuple[str, Iterable[int]]]) -> None:
        """Back to the initial words in one move, whatever was applied since.

        ``emptied`` names, for each :meth:`apply` since, its pair and the words it rewrote: apply
        popped that pair's bucket, and it goes back as :meth:`unapply` would put it. Every other
        bucket only grew, so the index is still a superset of the pairs (what :meth:`apply` needs).
        """
        self.words.symbols[:] = self.initial
        for pair, wids in emptied:
            add_to_index(self._pairs, pair, wids)

    def index(self, wid: int, word: str) -> None:
        pairs = self._pairs
        for key in map(str.__add__, word[:-1], word[1:]):
            found = pairs.get(key)
            if found is None:
                pairs[key] = {wid}
            else:
                found.add(wid)

    def fresh(self) -> CorpusSegmentation:
        """A copy at step 0 (the words as they started), sharing the symbol table's tokens."""
        copy = CorpusSegmentation.__new__(CorpusSegmentation)
        copy.tokens, copy._char = list(self.tokens), dict(self._char)
        copy.words = Words(list(self.initial), list(self.words.counts))
        copy.initial = self.initial
        copy._pairs = {}
        for wid, w in enumerate(self.initial):
            copy.index(wid, w)
        return copy

    def replay(self, merges: Iterable[tuple[str, str, str]]) -> Iterator[Applied]:
        """Apply ``merges`` in order, yielding what each did (consumes this segmentation)."""
        for left, right, new in merges:
            yield self.apply(left, right, new)
