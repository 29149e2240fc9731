"""The n best Unigram segmentations, by SentencePiece's lattice and A* search (``Lattice::NBest``).

The lattice holds one node per piece occurrence (positions in characters) plus BOS and EOS. A
forward Viterbi pass gives every node the best score from BOS to it, which is the exact
remaining-cost heuristic for an A* search running backwards from EOS: a partial path ``x`` is
ranked by ``f(x) = g(x) + h(x)``, ``g`` the scores from EOS back to its left-most node, ``h`` that
node's Viterbi score. Paths come off the agenda in score order, so the first ``n`` that reach BOS
are the ``n`` best.

Everything SentencePiece does in C ``float`` is rounded to single precision here too, and the
agenda is a binary heap with libstdc++'s exact sift rules, so equal-score paths come out in the
same order as from ``sentencepiece`` itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .scores import to_f32

if TYPE_CHECKING:
    from .unigram import Node, UnigramModel

MAX_NBEST = 1024
_MAX_AGENDA = 10000
_MIN_AGENDA = 512


@dataclass(eq=False, slots=True)
class _LatticeNode:
    pos: int
    length: int
    id: int
    score: float
    backtrace: float = 0.0  # the best score from BOS (Viterbi)
    forward: float = 0.0  # the log-sum over every path from BOS (the forward algorithm, for sampling)


@dataclass(eq=False, slots=True)
class _Hyp:
    node: _LatticeNode
    next: _Hyp | None
    fx: float
    gx: float


@dataclass(slots=True)
class _Lattice:
    length: int
    begin: list[list[_LatticeNode]] = field(default_factory=list)
    end: list[list[_LatticeNode]] = field(default_factory=list)


def nbest_paths(model: UnigramModel, text: str, n: int) -> list[tuple[list[Node], float]]:
    """Up to ``n`` (capped at 1024) best segmentations of ``text`` with their scores."""
    if not text:
        return [([], 0.0)]
    n = max(1, min(n, MAX_NBEST))
    lattice = build_lattice(model, text)
    bos, eos = lattice.end[0][0], lattice.begin[lattice.length][0]
    _viterbi(lattice, model.float32)
    rnd: Callable[[float], float] = to_f32 if model.float32 else float
    agenda: list[_Hyp] = [_Hyp(eos, None, eos.backtrace, 0.0)]
    results: list[tuple[list[Node], float]] = []
    while agenda:
        top = _pop(agenda)
        if top.node is bos:
            path: list[Node] = []
            hyp = top.next
            while hyp is not None and hyp.next is not None:
                node = hyp.node
                path.append((node.pos, node.pos + node.length, node.id))
                hyp = hyp.next
            results.append((path, top.fx))
            if len(results) == n:
                break
            continue
        for lnode in lattice.end[top.node.pos]:
            _push(agenda, _Hyp(lnode, top, rnd(lnode.backtrace + top.gx), rnd(lnode.score + top.gx)))
        if len(agenda) >= _MAX_AGENDA:
            kept = [_pop(agenda) for _ in range(min(_MIN_AGENDA, n * 10))]
            agenda.clear()
            for hyp in kept:
                _push(agenda, hyp)
    return results


def build_lattice(model: UnigramModel, text: str) -> _Lattice:
    """``PopulateNodes``: every matching piece at every position, an unknown node where no
    one-character piece starts; node order = insertion order (it breaks ties later)."""
    length = len(text)
    lattice = _Lattice(length, [[] for _ in range(length + 1)], [[] for _ in range(length + 1)])
    lattice.end[0].append(_LatticeNode(0, 0, -1, 0.0))
    lattice.begin[length].append(_LatticeNode(length, 0, -1, 0.0))
    scores = model.lattice.by_chars
    for i in range(length):
        single = False
        for end, pid in model.matches(text, i):
            _insert(lattice, _LatticeNode(i, end - i, pid, scores[pid]))  # type: ignore[arg-type]  # matched pieces have scores
            single = single or end == i + 1
        if not single:
            if model.unk_id is None:
                from ..errors import ConfigError

                raise ConfigError(f"character {text[i]!r} has no piece and the Unigram model has no unknown piece")
            _insert(lattice, _LatticeNode(i, 1, model.unk_id, model.lattice.unk_score))
    return lattice


def _insert(lattice: _Lattice, node: _LatticeNode) -> None:
    lattice.begin[node.pos].append(node)
    lattice.end[node.pos + node.length].append(node)


def _viterbi(lattice: _Lattice, float32: bool) -> None:
    """``Lattice::Viterbi``: each node's best score from BOS (float sums, first best kept)."""
    for pos in range(lattice.length + 1):
        for rnode in lattice.begin[pos]:
            best = -math.inf
            found = False
            for lnode in lattice.end[pos]:
                score = lnode.backtrace + rnode.score
                if float32:
                    score = to_f32(score)
                if not found or score > best:
                    best, found = score, True
            rnode.backtrace = best


# -- std::priority_queue<Hypothesis*, vector, fx-less> as libstdc++ sifts it ----------------------
def _push(heap: list[_Hyp], hyp: _Hyp) -> None:
    heap.append(hyp)
    _sift_up(heap, len(heap) - 1, 0, hyp)


def _pop(heap: list[_Hyp]) -> _Hyp:
    top = heap[0]
    last = heap.pop()
    if heap:
        _adjust(heap, 0, len(heap), last)
    return top


def _sift_up(heap: list[_Hyp], hole: int, top: int, value: _Hyp) -> None:
    parent = (hole - 1) // 2
    while hole > top and heap[parent].fx < value.fx:
        heap[hole] = heap[parent]
        hole = parent
        parent = (hole - 1) // 2
    heap[hole] = value


def _adjust(heap: list[_Hyp], hole: int, length: int, value: _Hyp) -> None:
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if heap[child].fx < heap[child - 1].fx:
            child -= 1
        heap[hole] = heap[child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        heap[hole] = heap[child - 1]
        hole = child - 1
    _sift_up(heap, hole, top, value)
