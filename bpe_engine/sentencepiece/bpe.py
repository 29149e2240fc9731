"""SentencePiece BPE: merge the adjacent pair whose union is the highest-scoring piece, repeatedly.

A SentencePiece BPE model stores no merge list, only pieces with scores (higher = merged
earlier in training). Encoding (``bpe_model.cc``) starts from characters -- user-defined symbols
whole and frozen -- and keeps merging the adjacent pair whose concatenation is a piece with the
highest score, the leftmost pair on ties, until no adjacent pair forms a piece. The C++ keeps a
priority queue; taking the best current pair each round is the same order (every current pair is
in its queue, stale ones are skipped there), and words are short.

A merged piece of type UNUSED is still formed, then split back into the two halves recorded for
it (recursively), as ``resegment`` does in the C++.

>>> m = BpeModel(["<unk>", "a", "b", "ab", "abb"], [0.0, -3.0, -4.0, -1.0, -2.0],
...              [PieceType.UNKNOWN] + [PieceType.NORMAL] * 4)
>>> m.encode_word("abbab")
[('abb', 4), ('ab', 3)]
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from ..literals import Literals
from .model_proto import PieceType

_IN_TABLE = (PieceType.NORMAL, PieceType.USER_DEFINED, PieceType.UNUSED)
_SHORT = 48  # up to this many symbols a scan per merge beats keeping a heap


class BpeModel:
    """Score-ordered BPE over one model's pieces (ids = positions)."""

    def __init__(self, pieces: Sequence[str], scores: Sequence[float], types: Sequence[PieceType]) -> None:
        self._score: dict[str, float] = {}
        self._piece_id: dict[str, int] = {}
        self._reserved: dict[str, int] = {}
        self._unused: set[str] = set()
        user: list[str] = []
        for i, (piece, score, kind) in enumerate(zip(pieces, scores, types, strict=True)):
            if kind in _IN_TABLE:
                self._score.setdefault(piece, score)
                self._piece_id.setdefault(piece, i)
                if kind is PieceType.UNUSED:
                    self._unused.add(piece)
                elif kind is PieceType.USER_DEFINED:
                    user.append(piece)
            else:
                self._reserved.setdefault(piece, i)
        self.unk_id = next(i for i, k in enumerate(types) if k is PieceType.UNKNOWN)
        self._user = Literals(user) if user else None  # longest at each position, as SentencePiece's prefix matcher

    def piece_id(self, piece: str) -> int:
        """SentencePiece's ``PieceToId``: reserved pieces first, then the table, else unknown."""
        found = self._reserved.get(piece)
        if found is not None:
            return found
        return self._piece_id.get(piece, self.unk_id)

    def score(self, piece: str) -> float | None:
        """The merge priority of ``piece`` (None when no merge can form it)."""
        return self._score.get(piece)

    def encode_word(self, text: str) -> list[tuple[str, int]]:
        """``(piece, id)`` of ``text`` after every merge (unknown pieces get the unknown id)."""
        symbols, frozen = self.initial_symbols(text)
        halves = self.merge(symbols, frozen) if len(symbols) > 1 else None
        out: list[tuple[str, int]] = []
        for piece in symbols:
            self._resegment(piece, halves, out)
        return out

    def initial_symbols(self, text: str) -> tuple[list[str], list[bool]]:
        """Characters, with user-defined symbols kept whole (longest match) and frozen."""
        if self._user is None:
            return list(text), [False] * len(text)
        symbols: list[str] = []
        frozen: list[bool] = []
        pos = 0
        for index, start, end in self._user.find(text):
            symbols += text[pos:start]
            frozen += [False] * (start - pos)
            symbols.append(self._user.literals[index])
            frozen.append(True)
            pos = end
        symbols += text[pos:]
        frozen += [False] * (len(text) - pos)
        return symbols, frozen

    def merge(
        self, symbols: list[str], frozen: list[bool], trace: list[tuple[str, str, float]] | None = None
    ) -> dict[str, tuple[str, str]] | None:
        """Apply every merge in place (``trace`` collects ``(left, right, score)`` in order).

        Returns the halves last seen for each UNUSED piece formed (None when the model has none).
        """
        if len(symbols) > _SHORT:
            return self._merge_long(symbols, frozen, trace)
        score_of = self._score.get
        unused = self._unused
        halves: dict[str, tuple[str, str]] | None = {} if unused else None

        def pair(i: int) -> float | None:
            if frozen[i] or frozen[i + 1]:
                return None
            joined = symbols[i] + symbols[i + 1]
            found = score_of(joined)
            if found is not None and halves is not None and joined in unused:
                halves[joined] = (symbols[i], symbols[i + 1])
            return found

        scores = [pair(i) for i in range(len(symbols) - 1)]
        while True:
            best_i, best = -1, 0.0
            for i, s in enumerate(scores):
                if s is not None and (best_i < 0 or s > best):
                    best_i, best = i, s
            if best_i < 0:
                return halves
            if trace is not None:
                trace.append((symbols[best_i], symbols[best_i + 1], best))
            symbols[best_i] += symbols[best_i + 1]
            del symbols[best_i + 1], frozen[best_i + 1], scores[best_i]
            if best_i > 0:
                scores[best_i - 1] = pair(best_i - 1)
            if best_i < len(scores):
                scores[best_i] = pair(best_i)

    def _merge_long(
        self, symbols: list[str], frozen: list[bool], trace: list[tuple[str, str, float]] | None
    ) -> dict[str, tuple[str, str]] | None:
        """:meth:`merge` for long inputs, as the C++ does it: a heap of candidate pairs (best
        score, then leftmost), symbols in a linked list, stale pairs recognised by their length."""
        score_of = self._score.get
        unused = self._unused
        halves: dict[str, tuple[str, str]] | None = {} if unused else None
        n = len(symbols)
        piece = list(symbols)
        prev = list(range(-1, n - 1))
        nxt = [*range(1, n), -1]
        heap: list[tuple[float, int, int, int]] = []

        def add(left: int, right: int) -> None:
            if left < 0 or right < 0 or frozen[left] or frozen[right]:
                return
            joined = piece[left] + piece[right]
            found = score_of(joined)
            if found is None:
                return
            heapq.heappush(heap, (-found, left, right, len(joined)))
            if halves is not None and joined in unused:
                halves[joined] = (piece[left], piece[right])

        for i in range(1, n):
            add(i - 1, i)
        while heap:
            negative, left, right, size = heapq.heappop(heap)
            if not piece[left] or not piece[right] or len(piece[left]) + len(piece[right]) != size:
                continue
            if trace is not None:
                trace.append((piece[left], piece[right], -negative))
            piece[left] += piece[right]
            piece[right] = ""
            nxt[left] = nxt[right]
            if nxt[right] >= 0:
                prev[nxt[right]] = left
            add(prev[left], left)
            add(left, nxt[left])
        symbols[:] = [p for p in piece if p]
        return halves

    def _resegment(self, piece: str, halves: dict[str, tuple[str, str]] | None, out: list[tuple[str, int]]) -> None:
        if halves and piece in halves and piece in self._unused and piece not in self._reserved:
            left, right = halves[piece]
            self._resegment(left, halves, out)
            self._resegment(right, halves, out)
        else:
            out.append((piece, self.piece_id(piece)))
