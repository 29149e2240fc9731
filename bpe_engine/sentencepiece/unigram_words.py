"""Unigram encoding of long texts word by word, with a memo, exactly equal to one whole search.

No piece crosses a word boundary (see :mod:`.words`), so every path passes through each boundary
and a word's best path does not depend on the words before it -- except through rounding:
SentencePiece stores path scores as C floats, and a stored score carries the whole prefix's sum,
so near ties inside a word can fall differently far into a long text. Each memo entry therefore
keeps, besides the word's ids, the largest |score offset| up to which its decisions cannot flip
(its *limit*). While the running bound on |offset| stays below a word's limit the memo is exact;
otherwise the word is searched again at its exact offset, which is recovered by replaying the
float sums of the path so far.

Words are cut further, on a memo miss, wherever two neighbouring characters occur together in
no piece (no node can cross there): ``▁word,`` reuses ``▁word`` and ``,``.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterator, Sequence
from functools import reduce
from operator import iadd, itemgetter

from ..bpe.encode import PieceCache
from .unigram import Node, UnigramModel

Entry = tuple[tuple[int, ...], float, float, bool]
"""A memo entry: ``(ids, magnitude, limit, starts_unknown)`` -- the word's ids, the sum of |node
scores| on its path (how much it adds to the bound on |offset|), the |offset| its decisions bear,
and whether its first id is the unknown id (then it may fuse with an unknown run before it)."""

_IDS, _MAGNITUDE, _LIMIT, _STARTS_UNKNOWN = itemgetter(0), itemgetter(1), itemgetter(2), itemgetter(3)
_ROUND = array("f", [0.0])


class UnigramWords:
    """Memoized word-by-word search over one :class:`UnigramModel`."""

    def __init__(self, model: UnigramModel, *, max_entries: int = 1 << 18) -> None:
        self.model = model
        self._memo: PieceCache[Entry] = PieceCache(self._entry, max_entries)
        self._pairs = {p[k : k + 2] for p in model._ids for k in range(len(p) - 1)}
        self._fuse = model.unk_id if not model.byte_fallback else None
        scores = [s for s in model.lattice.by_bytes if s is not None]
        self._never_positive = max(scores, default=0.0) <= 0 and model.lattice.unk_score <= 0

    def encode(self, words: Sequence[str]) -> list[int]:
        """Ids of the text ``"".join(words)``.

        The hot path: when even the whole text's magnitude stays below every word's limit, no
        word needs the exact search, and the memo's ids are joined at C speed.
        """
        entries = list(map(self._memo.__getitem__, words))
        if not entries:
            return []
        if sum(map(_MAGNITUDE, entries)) < min(map(_LIMIT, entries)):
            out: list[int] = reduce(iadd, map(_IDS, entries), [])
            if self._fuse is None or not any(map(_STARTS_UNKNOWN, entries)):
                return out
        else:
            out = []
            for word, entry, exact in self._walk(words, entries):
                out += entry[0] if exact is None else self.model.ids(exact, word)
        return out if self._fuse is None or self._fuse not in out else _fuse_unknown(out, self._fuse)

    def segment(self, words: Sequence[str]) -> list[Node]:
        """The best path of ``"".join(words)`` (offsets into the joined text), for spans."""
        out: list[Node] = []
        base = 0
        for word, _entry, exact in self._walk(words, list(map(self._memo.__getitem__, words))):
            nodes = exact if exact is not None else self.model.viterbi(word, float32=False)[0]
            out += [(s + base, e + base, i) for s, e, i in nodes]
            base += len(word)
        return out

    def _walk(self, words: Sequence[str], entries: list[Entry]) -> Iterator[tuple[str, Entry, list[Node] | None]]:
        """Each word with its entry, and its exact path where the memo's could be wrong (else None)."""
        model, f32 = self.model, self.model.float32
        bound = 0.0  # |stored score| so far is at most this
        pending: list[str] = []  # words since `exact` was last known
        exact = 0.0
        for word, entry in zip(words, entries, strict=True):
            if bound >= entry[2]:
                exact = self._replay(pending, exact, f32)
                nodes, exact, _margin, _magnitude = model.viterbi(word, exact)
                yield word, entry, nodes
            else:
                pending.append(word)
                yield word, entry, None
            bound += entry[1]

    def _replay(self, pending: list[str], exact: float, f32: bool) -> float:
        """The stored score after the memo paths of ``pending`` (then emptied), as C floats sum it."""
        rounded = _ROUND
        model = self.model
        for word in pending:
            for s, e, i in model.viterbi(word, float32=False)[0]:
                exact = model.node_score(word, s, e, i) + exact
                if f32:
                    rounded[0] = exact
                    exact = rounded[0]
        pending.clear()
        return exact

    def _entry(self, word: str) -> Entry:
        pairs = self._pairs
        cuts = [i for i in range(1, len(word)) if word[i - 1 : i + 1] not in pairs]
        if not cuts:
            return self._chunk(word)
        parts = [self._memo[word[a:b]] for a, b in zip([0, *cuts], [*cuts, len(word)], strict=True)]
        ids: list[int] = []
        magnitude, limit = 0.0, math.inf
        for part_ids, part_magnitude, part_limit, _starts_unknown in parts:
            if self._fuse is not None and ids and part_ids and ids[-1] == self._fuse == part_ids[0]:
                ids += part_ids[1:]
            else:
                ids += part_ids
            limit = min(limit, part_limit - magnitude)  # the parts before it raise the bound
            magnitude += part_magnitude
        return tuple(ids), magnitude, limit, parts[0][3]

    def _chunk(self, word: str) -> Entry:
        # Doubles at offset 0 stand for exact sums. A decision won by gap g holds while every
        # stored score rounds by less than g / (2 * (len + 1)): while |offset| + 2 * magnitude <
        # g * 2**22 / (len + 1) (2x spare). Exact ties never hold.
        model = self.model
        nodes, score, margin, largest = model.viterbi(word, float32=False)
        if self._never_positive:  # then the path's sum of |scores| is |its score|
            magnitude = -score
        else:
            magnitude = sum(abs(model.node_score(word, s, e, i)) for s, e, i in nodes)
        limit = margin * 2.0**22 / (len(word) + 1) - 2 * largest if margin > 0 else -1.0
        ids = tuple(model.ids(nodes, word))
        return ids, magnitude, limit, bool(ids) and ids[0] == self._fuse


def _fuse_unknown(ids: list[int], unk: int) -> list[int]:
    """Consecutive unknown ids as one (SentencePiece reports an unknown run as one piece)."""
    out: list[int] = []
    for i in ids:
        if i != unk or not out or out[-1] != unk:
            out.append(i)
    return out
