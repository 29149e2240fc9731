"""The naive WordPiece trainer: recount everything, every step. The oracle for :mod:`.trainer`.

Deliberately plain: per step it counts every symbol and every adjacent pair over the whole
corpus, takes the pair with the best key -- highest count(ab) / (count(a) * count(b)), then the
higher count(ab), then the smaller ``(left, right)`` -- and fuses it everywhere, left to right.
It starts from the same :func:`~.trainer.initial_state` (specials, alphabet, words), so the tests
compare exactly the part that is incremental in the fast trainer: the merge loop.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..naive_bpe import fuse
from ..steps import MergeStep, why_of_ranking
from .setup import WordPieceTrainerConfig, initial_state, merged_token


def reference_steps(word_counts: Mapping[str, int], config: WordPieceTrainerConfig) -> Iterator[MergeStep]:
    """Yield the merges the likelihood score picks, recounting the corpus before each one."""
    state = initial_state(word_counts, config)
    vocab: dict[str, int] = {t: i for i, t in enumerate(state.tokens)}
    words = [list(w) for w in state.words]
    counts = state.counts
    minimum = max(1, config.min_frequency)
    rank = 0
    while len(vocab) < config.vocab_size:
        symbol_count: dict[str, int] = {}
        pair_count: dict[tuple[str, str], int] = {}
        for word, n in zip(words, counts):
            for s in word:
                symbol_count[s] = symbol_count.get(s, 0) + n
            for pair in zip(word, word[1:]):
                pair_count[pair] = pair_count.get(pair, 0) + n
        candidates = [(p, c) for p, c in pair_count.items() if c >= minimum]
        if not candidates:
            return
        ranked = sorted(
            candidates, key=lambda pc: (-pc[1] / (symbol_count[pc[0][0]] * symbol_count[pc[0][1]]), -pc[1], pc[0])
        )
        (left, right), count = ranked[0]
        score = count / (symbol_count[left] * symbol_count[right])
        scored = [(p, c / (symbol_count[p[0]] * symbol_count[p[1]])) for p, c in ranked]
        rule = None
        if len(ranked) > 1 and scored[1][1] == score:
            rule = (
                "equal scores: the higher count(ab) won" if ranked[1][1] < count
                else "equal scores and counts: the smaller (left, right) by code point won"
            )
        why = why_of_ranking("score", scored, rule)
        new = merged_token(left, right, config.continuing_prefix)
        if new not in vocab:
            vocab[new] = len(vocab)
        words_changed = occurrences = 0
        for k, word in enumerate(words):
            merged = fuse(word, left, right, new)[0]
            if len(merged) != len(word):
                words_changed += 1
                occurrences += (len(word) - len(merged)) * counts[k]
                words[k] = merged
        yield MergeStep(
            rank=rank, left=left, right=right, new=new, left_id=vocab[left], right_id=vocab[right], new_id=vocab[new],
            count=count, words_changed=words_changed, occurrences=occurrences, score=score, why=why,
        )
        rank += 1


def reference_vocab(word_counts: Mapping[str, int], config: WordPieceTrainerConfig) -> dict[str, int]:
    """The vocabulary after all reference merges (token -> id)."""
    state = initial_state(word_counts, config)
    vocab = {t: i for i, t in enumerate(state.tokens)}
    for step in reference_steps(word_counts, config):
        vocab.setdefault(step.new, len(vocab))
    return vocab
