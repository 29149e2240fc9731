"""``PruneSentencePieces``, vectorised: which pieces the vocabulary can best do without.

1. Each piece is segmented by the current model (its own lattice). A one-character piece is
   always kept. A piece whose best segmentation is not itself goes (it is never used whole). For
   the others the best segmentation *without* the piece (NBest's second path) is its replacement.
2. The corpus is segmented (Viterbi); ``freq[i]`` counts piece ``i`` in the best paths (float).
3. loss(i) = F x (log p(i) - sum over the replacement of log p'(a)), F = freq[i] / sum of word
   counts, p' the probabilities with i's count handed to its replacement: how much the corpus
   likelihood drops without i. Pieces never used in a best path go too.
4. Pieces without replacement first, then by loss (ties: lower id) until
   ``max(1.1 x vocab_size, shrinking_factor x size)``.

Every float is rounded where ``unigram_model_trainer.cc`` rounds it; ``log`` is the C library's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .config import UnigramTrainerConfig
from .em import edge_scores
from .lattice import Lattices
from .walks import viterbi

F32 = np.float32

KEPT_NO_ALTERNATIVE = -1
REMOVED_BY_LOSS = 0
REMOVED_UNUSED = 1
REMOVED_SPLIT = 2


@dataclass(frozen=True, slots=True)
class PruneResult:
    """``keep``: old indices of the pieces kept, in their new order; ``removed`` / ``reasons`` /
    ``losses``: every removed piece (old index), why (a ``REMOVED_*`` code) and its loss (0 where
    none was computed); ``threshold``: the loss of the last piece kept by loss (NaN if none)."""

    keep: np.ndarray
    removed: np.ndarray
    reasons: np.ndarray
    losses: np.ndarray
    candidate_losses: np.ndarray
    candidates: np.ndarray
    threshold: float


def _logs(values: np.ndarray) -> np.ndarray:
    return np.fromiter(map(math.log, values.astype(np.float64).tolist()), np.float64, len(values))


def prune(
    piece_lengths: np.ndarray,
    scores: np.ndarray,
    own: Lattices,
    corpus: Lattices,
    corpus_ids: np.ndarray,
    counts: np.ndarray,
    config: UnigramTrainerConfig,
) -> PruneResult:
    """``own``: the current pieces' lattices (each piece a word, seeds = current ids); ``corpus``:
    the words' lattices with ``corpus_ids[seed]`` the current id of each seed (-1: gone)."""
    n = len(piece_lengths)
    cur, score, _unk = edge_scores(own, np.arange(n), scores)
    _best, best_word = viterbi(own, score).in_order(own.row_word)
    path_len = np.bincount(best_word, minlength=n)
    single = piece_lengths == 1
    split = ~single & (path_len >= 2)
    whole = ~single & ~split
    # The second best path: the best one without the piece's own node.
    whole_word = (own.k > 1) & (own.k == own.lengths[own.row_word[own.row]]) & (own.ends() == own.k)
    alt_lat = own.select(~whole_word)
    alt, alt_word = viterbi(alt_lat, score[~whole_word]).in_order(alt_lat.row_word)
    alt_piece = cur[~whole_word][alt]
    sel = whole[alt_word]
    alt_word, alt_piece = alt_word[sel], alt_piece[sel]
    n_alt = np.bincount(alt_word, minlength=n)
    # Corpus Viterbi counts.
    c_cur, c_score, _c_unk = edge_scores(corpus, corpus_ids, scores)
    path, words = viterbi(corpus, c_score).in_order(corpus.row_word)
    freq = np.zeros(n, F32)
    np.add.at(freq, c_cur[path], counts[words].astype(F32))
    vsum = np.add.accumulate(counts.astype(F32))[-1]
    total = F32(np.cumsum(freq.astype(np.float64))[-1])
    logsum = F32(math.log(total))
    used = freq != 0
    no_alt = used & ~split & (n_alt == 0)
    cand = np.flatnonzero(used & ~split & (n_alt > 0))
    f = freq[cand]
    big_f = (f / vsum).astype(F32)
    logprob_sp = (_logs(f) - np.float64(logsum)).astype(F32)
    logsum_alt = _logs((total + f * (n_alt[cand] - 1).astype(F32)).astype(F32)).astype(F32)
    # Sum over each replacement, in order, in float: one wave per position in the replacement.
    starts = np.concatenate(([0], np.cumsum(n_alt)[:-1]))
    logprob_alt = np.zeros(n, np.float64)
    lsa = np.zeros(n, np.float64)
    lsa[cand] = logsum_alt
    fi = np.zeros(n, F32)
    fi[cand] = f
    for j in range(int(n_alt.max(initial=0))):
        who = cand[n_alt[cand] > j]
        a = alt_piece[starts[who] + j]
        term = _logs((freq[a] + fi[who]).astype(F32)) - lsa[who]
        logprob_alt[who] = (logprob_alt[who] + term).astype(F32)
    loss = (big_f * (logprob_sp - logprob_alt[cand].astype(F32)).astype(F32)).astype(F32)
    size = max(config.desired_vocab_size, int(F32(F32(config.shrinking_factor_f32) * F32(n))))
    ranked = cand[np.lexsort((cand, -loss))]
    first = np.flatnonzero(no_alt)
    take = max(0, size - len(first))
    by_loss = ranked[:take]
    keep = np.concatenate([first, by_loss])
    loss_of = np.zeros(n, F32)
    loss_of[cand] = loss
    gone = np.ones(n, bool)
    gone[keep] = False
    removed = np.flatnonzero(gone)
    reasons = np.where(split[removed], REMOVED_SPLIT, np.where(~used[removed], REMOVED_UNUSED, REMOVED_BY_LOSS))
    threshold = float(loss_of[by_loss[-1]]) if len(by_loss) else float("nan")
    return PruneResult(keep, removed, reasons.astype(np.int8), loss_of[removed], loss, cand, threshold)
