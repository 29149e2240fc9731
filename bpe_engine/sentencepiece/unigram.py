"""The Unigram model: the segmentation with the highest total piece log-probability (Viterbi).

Each piece has a score (its log-probability). A segmentation's score is the sum of its pieces'
scores; a character no piece covers is an unknown node scoring ``min(score) - 10``. The search is
SentencePiece's optimized Viterbi (``unigram_model.cc``, ``EncodeOptimized``) step for step: for
every start position, every piece that matches there updates the best path ending at its end,
strictly-better only (so ties keep the earlier start). With ``float32=True`` path scores are
stored as C floats, as SentencePiece stores them; Hugging Face keeps doubles (the default here).

Long texts: no piece crosses a word boundary (checked, see :mod:`.words`), so every path passes
through each boundary and a word's best path does not depend on the words before it -- except
through rounding, since the stored scores carry the whole prefix's sum. :meth:`segment` therefore
reuses a word's segmentation only when every decision in it won by a margin the rounding at the
current magnitude cannot flip; otherwise it replays the exact float arithmetic for that word.

>>> m = UnigramModel([("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -1.5)], unk_id=0)
>>> m.encode_piece("abba")
[3, 2, 1]
>>> [(ids, round(score, 2)) for ids, score in m.nbest("ab", 2)]
[([3], -1.5), ([1, 2], -2.0)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import ConfigError
from .model_proto import PieceType, byte_piece
from .scores import in_trie, lattice_scores, to_f32

Node = tuple[int, int, int]
"""``(start, end, id)`` of one piece of a segmentation, in characters of the encoded text."""


@dataclass(frozen=True, slots=True)
class _Word:
    """A word's best path at offset 0 and how far that result can be trusted at other offsets."""

    nodes: tuple[Node, ...]
    scores: tuple[float, ...]
    magnitude: float
    limit: float


class UnigramModel:
    """Viterbi segmentation over ``pieces`` (``(piece, score)`` in id order).

    ``unk_id`` is the id of unknown characters (None: an unknown character is an error, as in
    Hugging Face). ``byte_fallback`` spells unknown characters as ``<0xNN>`` byte pieces when the
    model has them. ``kinds`` (SentencePiece piece types) switches to SentencePiece's rules for
    user-defined, unused and reserved pieces; ``float32`` to its single-precision path scores.
    """

    def __init__(
        self,
        pieces: Sequence[tuple[str, float]],
        *,
        unk_id: int | None,
        byte_fallback: bool = False,
        kinds: Sequence[PieceType] | None = None,
        float32: bool = False,
    ) -> None:
        if unk_id is not None and not 0 <= unk_id < len(pieces):
            raise ConfigError(f"unk_id {unk_id} is outside the {len(pieces)} pieces of the Unigram model")
        self.pieces = [p for p, _s in pieces]
        self.unk_id = unk_id
        self.float32 = float32
        scores = lattice_scores(pieces, kinds, float32=float32)
        self._node_score = scores.by_bytes
        self.lattice = scores
        self._ids: dict[str, int] = {}
        self._prefixes: set[str] = set()
        for i, ok in enumerate(in_trie(kinds, len(pieces))):
            piece = self.pieces[i]
            if ok and piece not in self._ids:
                self._ids[piece] = i
                self._prefixes.update(piece[:k] for k in range(1, len(piece) + 1))
        self._max_len = max(map(len, self._ids), default=1)
        self._byte_ids: list[int] | None = None
        if byte_fallback:
            table = {p: i for i, p in enumerate(self.pieces)}
            found = [table.get(byte_piece(b)) for b in range(256)]
            self._byte_ids = [i for i in found if i is not None] if None not in found else None
        self._memo: dict[str, _Word] = {}

    @property
    def byte_fallback(self) -> bool:
        return self._byte_ids is not None

    # -- the contract ----------------------------------------------------------------------------
    def encode_piece(self, text: str) -> list[int]:
        """Ids of one normalized piece: Viterbi, then unknowns as bytes or as one fused unknown."""
        return self.ids(self.viterbi(text)[0], text)

    def nbest(self, text: str, n: int) -> list[tuple[list[int], float]]:
        """The ``n`` best segmentations of ``text`` with their scores, best first (A* over the
        lattice, as SentencePiece's ``NBestEncode``; ids as :meth:`ids` reports them)."""
        from .nbest import nbest_paths

        return [(self.ids(path, text), score) for path, score in nbest_paths(self, text, n)]

    # -- segmentations -----------------------------------------------------------------------------
    def viterbi(self, text: str, offset: float = 0.0) -> tuple[list[Node], float, float, float]:
        """Best path of ``text`` whose score starts at ``offset``: ``(nodes, score, margin,
        magnitude)``. ``margin`` is the smallest gap between a winning and a losing candidate
        (how much rounding the decisions can bear); ``magnitude`` the largest stored |score|."""
        n = len(text)
        score_at = [0.0] * (n + 1)
        start_at = [-1] * (n + 1)
        id_at = [-1] * (n + 1)
        score_at[0] = offset
        ids, prefixes, node_score = self._ids, self._prefixes, self._node_score
        unk_score, unk_id, f32 = self.lattice.unk_score, self.unk_id, self.float32
        margin = math.inf
        for i in range(n):
            here = score_at[i]
            single = False
            for end in range(i + 1, min(n, i + self._max_len) + 1):
                sub = text[i:end]
                if sub not in prefixes:
                    break
                pid = ids.get(sub)
                if pid is None:
                    continue
                score = node_score[pid]
                if score is None:  # unused: matched, never a node (nor a single-character node)
                    continue
                if end == i + 1:
                    single = True
                candidate = score + here
                if start_at[end] != -1:
                    gap = candidate - score_at[end]
                    margin = min(margin, abs(gap))
                    if gap <= 0:
                        continue
                score_at[end] = to_f32(candidate) if f32 else candidate
                start_at[end], id_at[end] = i, pid
            if not single:
                if unk_id is None:
                    raise ConfigError(f"character {text[i]!r} has no piece and the Unigram model has no unknown piece")
                candidate = to_f32(unk_score + here) if f32 else unk_score + here
                if start_at[i + 1] != -1:
                    gap = candidate - score_at[i + 1]
                    margin = min(margin, abs(gap))
                    if gap <= 0:
                        continue
                score_at[i + 1], start_at[i + 1], id_at[i + 1] = candidate, i, unk_id
        nodes: list[Node] = []
        end = n
        while end > 0:
            nodes.append((start_at[end], end, id_at[end]))
            end = start_at[end]
        nodes.reverse()
        return nodes, score_at[n], margin, max(map(abs, score_at), default=0.0)

    def segment(self, words: Sequence[str]) -> list[Node]:
        """Best path of the text ``"".join(words)`` (no piece may cross between two words),
        reusing each word's path where rounding cannot change it; offsets are into the joined text."""
        out: list[Node] = []
        memo, word_of = self._memo, self._word
        bound = 0.0  # |path score so far| can be at most this
        pending: list[tuple[float, ...]] = []  # node scores since `exact` was last known
        exact = 0.0
        base = 0
        for w in words:
            entry = memo.get(w) or word_of(w)
            if self.float32 and bound >= entry.limit:
                for scores in pending:
                    for s in scores:
                        exact = to_f32(s + exact)
                pending.clear()
                nodes, exact, _m, _mag = self.viterbi(w, exact)
                out += [(s + base, e + base, i) for s, e, i in nodes]
            else:
                pending.append(entry.scores)
                out += [(s + base, e + base, i) for s, e, i in entry.nodes] if base else entry.nodes
            bound += entry.magnitude
            base += len(w)
        return out

    def _word(self, word: str) -> _Word:
        nodes, _score, margin, magnitude = self.viterbi(word)
        scores = tuple(self._score_of(word, s, e, i) for s, e, i in nodes)
        # A decision with gap g survives offsets |a| while every stored score rounds by less than
        # g / (2 * (len + 1)): that is |a| + 2 * magnitude < g * 2**22 / (len + 1) (2x spare).
        limit = margin * 2.0**22 / (len(word) + 1) - 2 * magnitude if margin > 0 else -1.0
        entry = _Word(tuple(nodes), scores, sum(map(abs, scores)), limit)
        if len(self._memo) < 1 << 18:
            self._memo[word] = entry
        return entry

    def _score_of(self, text: str, start: int, end: int, pid: int) -> float:
        if pid == self.unk_id and (end - start != 1 or self._ids.get(text[start:end]) != pid):
            return self.lattice.unk_score
        score = self._node_score[pid]
        return self.lattice.unk_score if score is None else score

    # -- ids -----------------------------------------------------------------------------------------
    def ids(self, nodes: Sequence[Node], text: str) -> list[int]:
        """Ids of a segmentation: unknown characters become their bytes (``byte_fallback``) or
        runs of them one unknown id, as SentencePiece reports them."""
        unk, byte_ids = self.unk_id, self._byte_ids
        out: list[int] = []
        prev_unk = False
        for s, e, i in nodes:
            if i != unk:
                out.append(i)
                prev_unk = False
            elif byte_ids is not None:
                out += [byte_ids[b] for b in text[s:e].encode("utf-8", "surrogatepass")]
            elif not prev_unk:
                out.append(i)
                prev_unk = True
        return out
