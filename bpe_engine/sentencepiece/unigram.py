"""The Unigram model: the segmentation with the highest total piece log-probability (Viterbi).

Each piece has a score (its log-probability). A segmentation's score is the sum of its pieces'
scores; a character no piece covers is an unknown node scoring ``min(score) - 10``. The search is
SentencePiece's optimized Viterbi (``unigram_model.cc``, ``EncodeOptimized``) step for step: for
every start position, every piece that matches there updates the best path ending at its end,
strictly-better only (so ties keep the earlier start). With ``float32=True`` path scores are
stored as C floats, as SentencePiece stores them; Hugging Face keeps doubles (the default here).

Long texts are encoded word by word with a memo by :mod:`.unigram_words`, which keeps the result
exactly that of one search over the whole text.

>>> m = UnigramModel([("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -1.5)], unk_id=0)
>>> m.encode_piece("abba")
[3, 2, 1]
>>> [(ids, round(score, 2)) for ids, score in m.nbest("ab", 2)]
[([3], -1.5), ([1, 2], -2.0)]
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from typing import Any

from ..errors import ConfigError
from .model_proto import PieceType, byte_piece
from .scores import in_trie, lattice_scores

Node = tuple[int, int, int]
"""``(start, end, id)`` of one piece of a segmentation, in characters of the encoded text."""


_VALUE = ""  # the trie key under which a node keeps its piece (no character is the empty string)
TrieNode = dict[str, Any]
"""One level of the pieces' trie: a character -> the next level, and :data:`_VALUE` -> ``(id, score)``."""
_ROUND = array("f", [0.0])


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
        for i, ok in enumerate(in_trie(kinds, len(pieces))):
            if ok:
                self._ids.setdefault(self.pieces[i], i)
        # A trie of nested dicts, one character per level; the pieces that become nodes keep
        # (id, node score) under the key "" (walking it beats hashing every substring).
        self._trie: TrieNode = {}
        for piece, pid in self._ids.items():
            score = self._node_score[pid]
            if score is not None:
                node = self._trie
                for ch in piece:
                    node = node.setdefault(ch, {})
                node[_VALUE] = (pid, score)
        self._byte_ids: list[int] | None = None
        if byte_fallback:
            table = {p: i for i, p in enumerate(self.pieces)}
            found = [table.get(byte_piece(b)) for b in range(256)]
            self._byte_ids = [i for i in found if i is not None] if None not in found else None

    @property
    def byte_fallback(self) -> bool:
        return self._byte_ids is not None

    # -- the contract ----------------------------------------------------------------------------
    def encode_piece(self, text: str) -> list[int]:
        """Ids of one normalized piece: Viterbi, then unknowns as bytes or as one fused unknown."""
        return self.ids(self.viterbi(text)[0], text)

    def tokenize(self, text: str) -> list[tuple[int, int, int]]:
        """``(id, start, end)`` per token of one piece, Hugging Face's ``Unigram::tokenize``:
        a run of unknown characters is fused into one token, spelled as byte pieces (each with the
        whole run's span) under ``byte_fallback``, else one unknown id."""
        out: list[Node] = []
        nodes = self.viterbi(text)[0]
        k = 0
        while k < len(nodes):
            start, end, pid = nodes[k]
            if pid == self.unk_id:
                while k + 1 < len(nodes) and nodes[k + 1][2] == self.unk_id:
                    k += 1
                end = nodes[k][1]
                known = self._ids.get(text[start:end])
                if known is not None:
                    out.append((known, start, end))
                elif self._byte_ids is not None:
                    out += [(self._byte_ids[b], start, end) for b in text[start:end].encode("utf-8", "surrogatepass")]
                else:
                    out.append((pid, start, end))
            else:
                out.append((pid, start, end))
            k += 1
        return out

    def nbest(self, text: str, n: int) -> list[tuple[list[int], float]]:
        """The ``n`` best segmentations of ``text`` with their scores, best first (A* over the
        lattice, as SentencePiece's ``NBestEncode``; ids as :meth:`ids` reports them)."""
        from .nbest import nbest_paths

        return [(self.ids(path, text), score) for path, score in nbest_paths(self, text, n)]

    # -- segmentations -----------------------------------------------------------------------------
    def viterbi(
        self, text: str, offset: float = 0.0, *, float32: bool | None = None
    ) -> tuple[list[Node], float, float, float]:
        """Best path of ``text`` whose score starts at ``offset``: ``(nodes, score, margin,
        magnitude)``. ``margin`` is the smallest gap between a winning and a losing candidate
        (how much rounding the decisions can bear); ``magnitude`` the largest stored |score|.
        ``float32`` overrides the model's arithmetic (doubles stand for exact sums)."""
        f32 = self.float32 if float32 is None else float32
        n = len(text)
        score_at = [0.0] * (n + 1)
        start_at = [-1] * (n + 1)
        id_at = [-1] * (n + 1)
        score_at[0] = offset
        trie = self._trie
        unk_score, unk_id = self.lattice.unk_score, self.unk_id
        rounded = _ROUND  # a C float: storing into it rounds, reading it back gives the double
        margin = math.inf
        for i in range(n):
            here = score_at[i]
            single = False
            node: Any = trie  # a TrieNode level (mixed values: untyped walk), None once the walk leaves the trie
            end = i
            for ch in text[i:]:
                node = node.get(ch)
                if node is None:
                    break
                end += 1
                found = node.get(_VALUE)
                if found is None:  # a prefix only: no piece (that becomes a node) ends here
                    continue
                pid, score = found
                if end == i + 1:
                    single = True
                candidate = score + here
                if start_at[end] != -1:
                    gap = candidate - score_at[end]
                    if -margin < gap < margin:
                        margin = gap if gap > 0 else -gap
                    if gap <= 0:
                        continue
                if f32:
                    rounded[0] = candidate
                    candidate = rounded[0]
                score_at[end] = candidate
                start_at[end] = i
                id_at[end] = pid
            if not single:
                if unk_id is None:
                    raise ConfigError(f"character {text[i]!r} has no piece and the Unigram model has no unknown piece")
                candidate = unk_score + here
                if f32:
                    rounded[0] = candidate
                    candidate = rounded[0]
                if start_at[i + 1] != -1:
                    gap = candidate - score_at[i + 1]
                    if -margin < gap < margin:
                        margin = gap if gap > 0 else -gap
                    if gap <= 0:
                        continue
                score_at[i + 1] = candidate
                start_at[i + 1] = i
                id_at[i + 1] = unk_id
        nodes: list[Node] = []
        end = n
        while end > 0:
            nodes.append((start_at[end], end, id_at[end]))
            end = start_at[end]
        nodes.reverse()
        return nodes, score_at[n], margin, max(max(score_at), -min(score_at))

    def matches(self, text: str, start: int) -> list[tuple[int, int]]:
        """``(end, id)`` of every piece that starts at ``start`` and becomes a node, shortest first."""
        out: list[tuple[int, int]] = []
        node: Any = self._trie  # as in viterbi: a TrieNode level, or None
        for end in range(start + 1, len(text) + 1):
            node = node.get(text[end - 1])
            if node is None:
                break
            found = node.get(_VALUE)
            if found is not None:
                out.append((end, found[0]))
        return out

    def node_score(self, text: str, start: int, end: int, pid: int) -> float:
        """The score the optimized search gave node ``(start, end, pid)`` of ``text``."""
        score = self._node_score[pid] if self._ids.get(text[start:end]) == pid else None
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
