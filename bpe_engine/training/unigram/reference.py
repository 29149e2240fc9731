"""A slow, plain-Python Unigram trainer: ``unigram_model_trainer.cc`` line by line (the oracle).

One lattice per word (SentencePiece's ``Lattice``, built by the encoder's own ``PopulateNodes``
port), forward-backward with ``LogSumExp`` in C ``float``, marginals added into ``float``
expectations, ``Lattice::Viterbi`` with its first-best ties, ``NBest(2)`` by the encoder's A*
port for pruning, the C library's ``exp``/``log`` (``math``). Every C ``float`` is rounded with
:func:`to_f32` where C rounds it. The fast trainer (:mod:`.em`, :mod:`.prune`) is tested against
this one, and both against ``sentencepiece`` itself. Use it on small corpora only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...sentencepiece.model_proto import PieceType
from ...sentencepiece.nbest import build_lattice, nbest_paths
from ...sentencepiece.scores import to_f32
from ...sentencepiece.unigram import UnigramModel
from .config import UnigramTrainerConfig
from .digamma import digamma
from .finalize import finalize_pieces
from .seeds import make_seeds
from .sentences import LoadedCorpus
from .words import word_counts

Pieces = list[tuple[str, float]]


def _model(pieces: Pieces) -> UnigramModel:
    return UnigramModel(pieces, unk_id=0, kinds=[PieceType.NORMAL] * len(pieces), float32=True)


def log_sum_exp(x: float, y: float, init: bool) -> float:
    if init:
        return y
    vmin, vmax = min(x, y), max(x, y)
    if vmax > to_f32(vmin + 50):
        return vmax
    return to_f32(vmax + math.log(math.exp(to_f32(vmin - vmax)) + 1.0))


def _lattice(model: UnigramModel, text: str):
    return build_lattice(model, text)


def viterbi(lattice) -> list:
    """``Lattice::Viterbi``: the best path's nodes (ties: the first left node in end order)."""
    back: dict[int, float] = {}
    prev: dict[int, object] = {}
    bos = lattice.end[0][0]
    back[id(bos)] = 0.0
    for pos in range(lattice.length + 1):
        for rnode in lattice.begin[pos]:
            best, best_node = 0.0, None
            for lnode in lattice.end[pos]:
                score = to_f32(back[id(lnode)] + rnode.score)
                if best_node is None or score > best:
                    best, best_node = score, lnode
            back[id(rnode)] = best
            prev[id(rnode)] = best_node
    path = []
    node = prev[id(lattice.begin[lattice.length][0])]
    while node is not bos:
        path.append(node)
        node = prev[id(node)]
    path.reverse()
    return path


def marginals(lattice, freq: float, expected: list[float]) -> float:
    """``PopulateMarginal``: adds ``freq`` x each node's marginal into ``expected``; returns
    ``freq * Z`` (float)."""
    n = lattice.length
    alpha: dict[int, float] = {id(lattice.end[0][0]): 0.0}
    for pos in range(n + 1):
        for rnode in lattice.begin[pos]:
            a = 0.0
            for k, lnode in enumerate(lattice.end[pos]):
                a = log_sum_exp(a, to_f32(lnode.score + alpha[id(lnode)]), k == 0)
            alpha[id(rnode)] = a
    beta: dict[int, float] = {id(lattice.begin[n][0]): 0.0}
    for pos in range(n, -1, -1):
        for lnode in lattice.end[pos]:
            b = 0.0
            for k, rnode in enumerate(lattice.begin[pos]):
                b = log_sum_exp(b, to_f32(rnode.score + beta[id(rnode)]), k == 0)
            beta[id(lnode)] = b
    z = alpha[id(lattice.begin[n][0])]
    for pos in range(n):
        for node in lattice.begin[pos]:
            if node.id >= 0:
                x = to_f32(to_f32(to_f32(alpha[id(node)] + node.score) + beta[id(node)]) - z)
                expected[node.id] = to_f32(expected[node.id] + freq * math.exp(x))
    return to_f32(freq * z)


def e_step(pieces: Pieces, words: Sequence[tuple[str, int]]) -> tuple[list[float], float, int]:
    model = _model(pieces)
    expected = [0.0] * len(pieces)
    all_freq = to_f32(sum(f for _w, f in words))
    obj = 0.0
    ntokens = 0
    for word, freq in words:
        lattice = _lattice(model, word)
        z = marginals(lattice, to_f32(freq), expected)
        ntokens += len(viterbi(lattice))
        obj = to_f32(obj - to_f32(z / all_freq))
    return expected, obj, ntokens


def m_step(pieces: Pieces, expected: Sequence[float]) -> Pieces:
    kept: Pieces = []
    total = 0.0
    for (piece, _score), freq in zip(pieces, expected, strict=True):
        if freq < 0.5:
            continue
        kept.append((piece, freq))
        total = to_f32(total + freq)
    logsum = to_f32(digamma(total))
    return [(p, to_f32(digamma(f) - logsum)) for p, f in kept]


def prune(pieces: Pieces, words: Sequence[tuple[str, int]], config: UnigramTrainerConfig) -> tuple[Pieces, list[tuple[int, float]]]:
    """``PruneSentencePieces``; also returns ``(index, loss)`` of every removable candidate."""
    model = _model(pieces)
    n = len(pieces)
    always_keep = [True] * n
    alternatives: list[list[int]] = [[] for _ in range(n)]
    for i, (piece, _s) in enumerate(pieces):
        nbests = nbest_paths(model, piece, 2)
        if len(nbests) == 1:
            continue
        if len(nbests[0][0]) >= 2:
            always_keep[i] = False
        else:
            alternatives[i] = [pid for _s, _e, pid in nbests[1][0]]
    freq = [0.0] * n
    inverted: list[list[int]] = [[] for _ in range(n)]
    vsum = 0.0
    for k, (word, count) in enumerate(words):
        vsum = to_f32(vsum + count)
        for node in viterbi(_lattice(model, word)):
            freq[node.id] = to_f32(freq[node.id] + to_f32(count))
            inverted[node.id].append(k)
    total = 0.0
    for f in freq:
        total += f
    total = to_f32(total)
    logsum = to_f32(math.log(total))
    kept: Pieces = []
    candidates: list[tuple[int, float]] = []
    for i in range(n):
        if freq[i] == 0 or not always_keep[i]:
            continue
        if not alternatives[i]:
            kept.append(pieces[i])
            continue
        big_f = 0.0
        for k in inverted[i]:
            big_f = to_f32(big_f + to_f32(words[k][1]))
        big_f = to_f32(big_f / vsum)
        logprob_sp = to_f32(math.log(freq[i]) - logsum)
        logsum_alt = to_f32(math.log(to_f32(total + to_f32(freq[i] * (len(alternatives[i]) - 1)))))
        logprob_alt = 0.0
        for a in alternatives[i]:
            logprob_alt = to_f32(logprob_alt + (math.log(to_f32(freq[a] + freq[i])) - logsum_alt))
        candidates.append((i, to_f32(big_f * to_f32(logprob_sp - logprob_alt))))
    size = max(int(config.vocab_size * 1.1), int(to_f32(config.shrinking_factor_f32 * n)))
    for i, _loss in sorted(candidates, key=lambda c: (-c[1], c[0])):
        if len(kept) == size:
            break
        kept.append(pieces[i])
    return kept, candidates


def train_reference(corpus: LoadedCorpus, config: UnigramTrainerConfig) -> Pieces:
    """The final pieces (specials excluded) with their scores, in vocabulary order. ``corpus``
    must hold its sentences (``load_corpus(..., keep_sentences=True)``)."""
    seeds = make_seeds(corpus.sentences, config)
    pieces: Pieces = [(p, float(s)) for p, s in zip(seeds.pieces, seeds.scores.tolist())]
    if config.split_by_whitespace:
        words = word_counts(corpus.sentences, config)
    else:
        words = [(s, 1) for s in corpus.sentences]
    while True:
        for _ in range(config.num_sub_iterations):
            expected, _obj, _ntokens = e_step(pieces, words)
            pieces = m_step(pieces, expected)
        if len(pieces) <= config.desired_vocab_size:
            break
        pieces, _cands = prune(pieces, words, config)
    return finalize_pieces(pieces, corpus.required_chars, config)
