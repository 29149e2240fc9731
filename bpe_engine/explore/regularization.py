"""Subword regularization, made visible: the segmentations one word can get, and how often.

Training with regularization shows a model many segmentations of the same word. Two ways:

* **BPE-dropout** (Provilkov et al. 2020): while merging, each candidate merge is skipped with
  probability ``p`` -- Hugging Face's ``Word::merge_all`` to the letter: the best merge is popped,
  dropped to a skip list with probability ``p``, else applied and the skipped ones put back. The
  probability of a segmentation has no closed form; it is *estimated* from samples. ``p = 0`` is
  plain BPE, ``p = 1`` leaves the word in its first symbols.
* **Unigram sampling** (Kudo 2018): a segmentation ``s`` is drawn with probability
  ``exp(alpha · score(s)) / Z``, ``Z`` summed over every path of the word's lattice by the forward
  algorithm (SentencePiece's ``Lattice::Sample``) -- the probability is *exact*; samples are drawn
  by forward-filtering, backward-sampling, as SentencePiece draws them.

Both answer with the distinct segmentations, most frequent (or most probable) first, each with its
probability and its share of ``n`` samples drawn with a fixed seed.
"""

from __future__ import annotations

import math
import random
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from heapq import heappop, heappush
from typing import TYPE_CHECKING, cast

from .stepper import initial_symbols

if TYPE_CHECKING:
    from ..sentencepiece.tokenizer import SentencePieceTokenizer
    from ..types import Encoding, ReplaysMerges, Tokenizer


@dataclass(frozen=True, slots=True)
class Sampled:
    """One segmentation of the word: its pieces, its probability (exact for Unigram, estimated
    for BPE-dropout) and how many of the samples drew it."""

    pieces: tuple[str, ...]
    probability: float
    samples: int


def bpe_dropout(tokenizer: ReplaysMerges, piece: str, *, p: float, n: int = 1000, seed: int = 0) -> list[Sampled]:
    """``n`` BPE-dropout segmentations of ``piece`` (one pre-tokenized piece of text)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout must be between 0 and 1, got {p}")
    pre = tokenizer.pre_tokenizer
    symbols = initial_symbols(
        piece, byte_level=tokenizer.capabilities.byte_level, end_of_word_suffix=pre.end_of_word_suffix,
        end_of_word=pre.end_of_word,
    )
    ranks = _ranks_of(tokenizer)
    rng = random.Random(seed)
    counts = Counter(merge_with_dropout(symbols, ranks, p, rng) for _ in range(n))
    return [Sampled(s, c / n, c) for s, c in counts.most_common()]


_RANKS: list[tuple[object, dict[tuple[str, str], tuple[int, str]]]] = []  # the last tokenizer's, kept
_RANKS_LOCK = threading.Lock()


def _ranks_of(tokenizer: ReplaysMerges) -> dict[tuple[str, str], tuple[int, str]]:
    """Each merge's rank and result (the first rank where a pair repeats), built once per
    tokenizer: 0.15 s for cl100k's 100,000 merges, on every token selected in Inspect otherwise."""
    with _RANKS_LOCK:
        if _RANKS and _RANKS[0][0] is tokenizer:
            return _RANKS[0][1]
    ranks = {(left, right): (rank, left + right) for rank, (left, right) in reversed(list(enumerate(tokenizer.merges)))}
    with _RANKS_LOCK:
        _RANKS[:] = [(tokenizer, ranks)]
    return ranks


def merge_with_dropout(
    symbols: Sequence[str], ranks: dict[tuple[str, str], tuple[int, str]], p: float, rng: random.Random
) -> tuple[str, ...]:
    """One segmentation: HF's merge loop, each popped merge skipped with probability ``p``."""
    word = list(symbols)
    alive = [True] * len(word)
    nxt = list(range(1, len(word))) + [-1]
    prv = [-1, *range(len(word) - 1)]
    queue: list[tuple[int, int, str]] = []
    for i in range(len(word) - 1):
        found = ranks.get((word[i], word[i + 1]))
        if found is not None:
            heappush(queue, (found[0], i, found[1]))
    skipped: list[tuple[int, int, str]] = []
    while queue:
        top = heappop(queue)
        if p > 0.0 and rng.random() < p:
            skipped.append(top)
            continue
        for entry in skipped:  # a merge done: the skipped ones are candidates again
            heappush(queue, entry)
        skipped.clear()
        rank, pos, new = top
        right = nxt[pos]
        if not alive[pos] or right == -1 or ranks.get((word[pos], word[right]), (-1, ""))[1] != new:
            continue  # an entry of a pair that is no longer there
        word[pos], alive[right] = new, False
        nxt[pos] = nxt[right]
        if nxt[pos] != -1:
            prv[nxt[pos]] = pos
        for left, rgt in ((prv[pos], pos), (pos, nxt[pos])):
            if left != -1 and rgt != -1:
                found = ranks.get((word[left], word[rgt]))
                if found is not None:
                    heappush(queue, (found[0], left, found[1]))
    return tuple(s for s, keep in zip(word, alive) if keep)


def unigram_sampling(
    tokenizer: SentencePieceTokenizer, text: str, *, alpha: float, n: int = 1000, seed: int = 0, top: int = 20,
    normalized: bool = False,
) -> list[Sampled]:
    """The ``top`` most probable segmentations of ``text`` (normalized as the model does, unless
    ``normalized``) with their exact probabilities, and the share of ``n`` samples that drew each;
    samples of other segmentations are counted under theirs too (most frequent after the ``top``)."""
    from ..sentencepiece.nbest import build_lattice, nbest_paths

    model = tokenizer.unigram
    if model is None:
        raise ValueError(f"{tokenizer.name!r} is not a Unigram model")
    norm = text if normalized else tokenizer.normalizer.normalize(text)
    if not norm:
        return []
    lattice = build_lattice(model, norm)
    log_z = _forward(lattice, alpha)
    rng = random.Random(seed)
    drawn = Counter(_sample(lattice, alpha, rng, norm) for _ in range(n))
    out: list[Sampled] = []
    seen: set[tuple[str, ...]] = set()
    for path, _ in nbest_paths(model, norm, top):
        pieces = tuple(norm[s:e] for s, e, _ in path)
        seen.add(pieces)
        # Scored as the lattice scores its nodes, so the probabilities sum with Z exactly.
        out.append(Sampled(pieces, math.exp(alpha * _path_score(model, norm, pieces) - log_z), drawn.get(pieces, 0)))
    for pieces, count in drawn.most_common():
        if pieces not in seen:
            out.append(Sampled(pieces, math.exp(alpha * _path_score(model, norm, pieces) - log_z), count))
    return out


@dataclass(frozen=True, slots=True)
class WordSamples:
    """The segmentations of the word holding one token: ``method`` ("BPE-dropout" or "Unigram
    sampling"), ``setting`` (``p = 0.1`` / ``alpha = 0.2``), ``word`` (as the model cuts it),
    ``exact`` (probabilities exact, or estimated from the samples), ``n`` samples drawn."""

    method: str
    setting: str
    word: str
    exact: bool
    n: int
    segmentations: tuple[Sampled, ...]
    plain: tuple[str, ...]  # the segmentation the tokenizer itself gives (no regularization)


def samples_at(
    tokenizer: Tokenizer, encoding: Encoding, index: int, *, dropout: float = 0.1, alpha: float = 0.2,
    n: int = 1000, seed: int = 0, top: int = 8,
) -> WordSamples | None:
    """Regularized segmentations of the word holding token ``index`` of ``encoding``, by the
    method the tokenizer's model trains with: BPE-dropout for a model that replays merges, Unigram
    sampling for a Unigram model; None for other models, special tokens and unknown pieces, and
    where the word's plain dropout-free segmentation is not the tokenizer's own (a pipeline whose
    normalizer reshapes the word: showing its samples would mislead)."""
    if not 0 <= index < len(encoding.ids) or encoding.special[index] or (encoding.unknown and encoding.unknown[index]):
        return None
    caps = tokenizer.capabilities
    if caps.explains == "unigram-choice":
        from ..sentencepiece.explain import normalized_word_at

        _, word = normalized_word_at(encoding, index)
        found = unigram_sampling(cast("SentencePieceTokenizer", tokenizer), word, alpha=alpha, n=n, seed=seed, top=top, normalized=True)
        plain = found[0].pieces if found else ()
        return WordSamples("Unigram sampling", f"alpha = {alpha:g}", word, True, n, tuple(found[:top]), plain)
    if not caps.replays_merges:
        return None
    merges = cast("ReplaysMerges", tokenizer)
    located = _piece_at(merges, encoding, index)
    if located is None:
        return None
    piece, plain = located
    (only,) = bpe_dropout(merges, piece, p=0.0, n=1)
    if only.pieces != plain:
        return None
    found = bpe_dropout(merges, piece, p=dropout, n=n, seed=seed)
    return WordSamples("BPE-dropout", f"p = {dropout:g}", piece, False, n, tuple(found[:top]), plain)


def _piece_at(tokenizer: ReplaysMerges, encoding: Encoding, index: int) -> tuple[str, tuple[str, ...]] | None:
    """The pre-tokenized piece holding token ``index`` and the tokens the encoding gives it."""
    from ..core.text_index import index_of

    text_index = index_of(encoding.text)
    start, _ = text_index.char_span(*encoding.byte_spans[index])
    for piece, s, e in tokenizer.pre_tokenizer.pieces(encoding.text):
        if s <= start < e:
            lo, hi = text_index.char_byte_starts[s], text_index.char_byte_starts[e]
            spans = zip(encoding.tokens, encoding.byte_spans, encoding.special, strict=True)
            return piece, tuple(t for t, (bs, be), sp in spans if lo <= bs and be <= hi and not sp)
    return None


def _forward(lattice, alpha: float) -> float:  # noqa: ANN001 - a sentencepiece.nbest lattice
    """``Lattice::ForwardAlgorithm``: each node's log-sum over paths from BOS to it (its own score
    excluded); returns log Z at EOS. Kept on the nodes as ``forward``."""
    for pos in range(lattice.length + 1):
        for rnode in lattice.begin[pos]:
            rnode.forward = _logsumexp([lnode.forward + alpha * lnode.score for lnode in lattice.end[pos]])
    return lattice.begin[lattice.length][0].forward


def _sample(lattice, alpha: float, rng: random.Random, text: str) -> tuple[str, ...]:  # noqa: ANN001
    """One path drawn backwards from EOS, each step by the forward weights (``Lattice::Sample``)."""
    node = lattice.begin[lattice.length][0]
    pieces: list[str] = []
    while True:
        options = lattice.end[node.pos]
        weights = [math.exp(l.forward + alpha * l.score - node.forward) for l in options]
        node = rng.choices(options, weights)[0]
        if node.length == 0:  # BOS
            break
        pieces.append(text[node.pos : node.pos + node.length])
    return tuple(reversed(pieces))


def _path_score(model, text: str, pieces: tuple[str, ...]) -> float:  # noqa: ANN001 - a UnigramModel
    score, start = 0.0, 0
    for piece in pieces:
        end = start + len(piece)
        pid = next((i for e, i in model.matches(text, start) if e == end), model.unk_id)
        score += model.node_score(text, start, end, pid)
        start = end
    return score


def _logsumexp(values: list[float]) -> float:
    if not values:
        return 0.0
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values))


__all__ = ["Sampled", "WordSamples", "bpe_dropout", "merge_with_dropout", "samples_at", "unigram_sampling"]
