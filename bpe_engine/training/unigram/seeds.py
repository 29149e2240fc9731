"""Seed pieces: every character, plus the substrings SentencePiece's suffix tree yields.

``MakeSeedSentencePieces`` builds an enhanced suffix array (esaxx) over all sentences joined by
a boundary symbol and takes each *internal node* -- a substring followed by at least two different
characters -- of 2 or more characters, without a boundary, that is a valid piece; its score is
occurrences x length; the best ``seed_sentencepiece_size`` are kept (ties: the node esaxx emits
first, see :func:`seed_candidates`), after all characters by frequency. Scores become log
probabilities in ``float`` (``ToLogProb``).

Here the suffixes are sorted only by their first ``max_sentencepiece_length + 1`` characters (a
longer node can never be a piece), and, in the default whitespace mode, over the distinct ``▁``
words with their counts instead of the whole text: a valid piece never holds ``▁`` past its first
character, so every occurrence lies inside one word, and the character after it is the word's next
character, or ``▁`` / the boundary after the word. Same nodes, same counts, a fraction of the work.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .config import UnigramTrainerConfig
from .pieces import UNK_CHAR, WS, PieceRule
from .words import Units, unit_counts

F32 = np.float32


@dataclass(frozen=True, slots=True)
class Seeds:
    """The seed vocabulary: ``pieces`` with ``scores`` (float32 log probabilities), characters
    first; ``counts`` the integer scores before ``ToLogProb`` (occurrences x length, or a
    character's count); ``candidates`` how many substrings qualified before the cut."""

    pieces: list[str]
    scores: np.ndarray
    counts: np.ndarray
    num_chars: int
    candidates: int


def char_counts(sentences: Sequence[str]) -> list[tuple[str, int]]:
    """Every character but ``▅`` with its count, most frequent first, then by code point."""
    counts: Counter[str] = Counter()
    for s in sentences:
        counts.update(s)
    counts.pop(UNK_CHAR, None)
    counts.pop("\0", None)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def to_log_prob(values: np.ndarray) -> np.ndarray:
    """``ToLogProb``: ``log(v) - log(sum)`` with the sum accumulated in ``float``, in order."""
    v32 = values.astype(F32)
    total = float(np.add.accumulate(v32)[-1]) if len(v32) else 0.0
    logsum = float(F32(math.log(total)))
    return np.array([math.log(float(x)) - logsum for x in v32], np.float64).astype(F32)


def make_seeds(
    sentences: Sequence[str],
    config: UnigramTrainerConfig,
    *,
    chars: list[tuple[str, int]] | None = None,
    units: Units | None = None,
) -> Seeds:
    """The seeds of the sentences; ``chars`` (:func:`char_counts`) and ``units``
    (:func:`~.words.unit_counts`) when the caller has them already."""
    chars = char_counts(sentences) if chars is None else chars
    by_word = config.split_by_whitespace and not config.treat_whitespace_as_suffix and not config.allow_whitespace_only_pieces
    if not by_word:  # whole sentences: the boundary \0 follows each
        units = Counter(s + "\n" for s in sentences if s)
    elif units is None:
        units = unit_counts(sentences, config)
    texts = [u.removesuffix("\n") for u in units]
    follows = ["\0" if u.endswith("\n") else WS for u in units]
    text, starts, lengths, scores = seed_candidates(texts, follows, list(units.values()), config)
    pieces = [c for c, _n in chars] + [text[s : s + n] for s, n in zip(starts.tolist(), lengths.tolist())]
    counts = np.concatenate([np.array([n for _c, n in chars], np.int64), scores])
    return Seeds(pieces, to_log_prob(counts), counts, len(chars), int(scores.size))


def seed_candidates(
    units: Sequence[str], follows: Sequence[str], weights: Sequence[int], config: UnigramTrainerConfig
) -> tuple[str, np.ndarray, np.ndarray, np.ndarray]:
    """The chosen substrings as ``(text, starts, lengths, scores)``, best first.

    Order: score descending, then esaxx's node order. esaxx numbers nodes as its stack pops them
    while scanning the suffix array: by the end of their suffix interval, deeper nodes first at
    the same end. For two substrings that is their code-point order, except that a substring comes
    *after* every longer one that starts with it (``ab`` after ``abc``).
    """
    maxlen = config.max_sentencepiece_length
    width = maxlen + 1
    text = "".join(u + f for u, f in zip(units, follows))
    n = len(text)
    empty = np.zeros(0, np.int64)
    if n == 0:
        return text, empty, empty, empty
    codes = np.frombuffer(text.encode("utf-32-le"), np.uint32)
    unit_len = np.fromiter((len(u) + 1 for u in units), np.int64, len(units))
    unit_end = np.cumsum(unit_len)  # one past each unit's follow symbol
    room = (np.repeat(unit_end - 1, unit_len) - np.arange(n)).astype(np.int32)  # characters before the follow symbol
    pos = np.flatnonzero(room > 0).astype(np.int32)  # the follow symbols start no occurrence
    w = np.repeat(np.asarray(weights, np.int64), unit_len - 1)
    sa, w, lcp = _suffix_order(codes, pos, w, width)
    cum_w = np.concatenate(([0], np.cumsum(w)))
    del w
    rule = PieceRule(np.concatenate([codes, np.zeros(width, np.uint32)]), config)
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []  # starts, lengths, frequencies, ends
    for d in range(2, maxlen + 1):
        brk = lcp < d
        run = np.cumsum(brk) - 1
        exact = np.zeros(run[-1] + 1, bool)
        exact[run[lcp == d]] = True  # some neighbours part right after d characters: a node
        first = np.flatnonzero(brk)
        end = np.concatenate((first[1:], [len(sa)]))
        sel = exact & (end - first >= 2)
        first, end = first[sel], end[sel]
        i0 = sa[first]
        ok = room[i0] >= d
        first, end, i0 = first[ok], end[ok], i0[ok]
        good = rule.valid(i0, d)
        found.append((i0[good], np.full(int(good.sum()), d, np.int64), (cum_w[end] - cum_w[first])[good], end[good]))
    starts, lengths, freq, ends = (np.concatenate(parts) for parts in zip(*found))
    scores = freq * lengths
    best = np.lexsort((-lengths, ends, -scores))[: config.seed_sentencepiece_size]
    return text, starts[best].astype(np.int64), lengths[best], scores[best]


def _suffix_order(codes: np.ndarray, pos: np.ndarray, w: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The suffixes starting at ``pos`` sorted by their first ``width`` characters (the weights
    ``w`` alongside), and the common prefix length of each with the one before (-1 for the first)."""
    # Dense ranks (order kept, 0 for the padding past the end) packed into 64-bit sort keys.
    alphabet, ranks = np.unique(codes, return_inverse=True)
    ranks = np.concatenate([ranks.astype(np.int32) + 1, np.zeros(width, np.int32)])
    bits = max(1, int(len(alphabet) + 1).bit_length())
    per_key = max(1, 63 // bits)
    keys = []
    for k0 in range(0, width, per_key):
        key = np.zeros(len(pos), np.int64)
        for c in range(k0, min(k0 + per_key, width)):
            key <<= bits
            key |= ranks[pos + c]
        key <<= bits * (per_key - min(per_key, width - k0))
        keys.append(key)
    order = np.lexsort(keys[::-1])
    del keys
    sa = pos[order]
    lcp = np.zeros(len(sa), np.int32)
    same = np.ones(len(sa) - 1, bool)
    for off in range(width):
        same &= ranks[sa[1:] + off] == ranks[sa[:-1] + off]
        lcp[1:] += same
    lcp[0] = -1
    return sa, w[order], lcp
