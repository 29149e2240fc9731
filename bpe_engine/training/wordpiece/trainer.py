"""Incremental WordPiece training with the likelihood score.

Words start as characters: the first plain, every later one prefixed with ``##`` (``hug`` ->
``h ##u ##g``). Each step merges the adjacent pair with the highest

    score(a, b) = count(ab) / (count(a) * count(b))

-- how much more often ``a`` and ``b`` occur together than chance would say, the likelihood gain
of the original WordPiece, where BPE takes the raw count(ab). Merging ``a ##b`` gives ``ab``,
``##a ##b`` gives ``##ab``.

Tie-break ("score, count, lexicographic"): scores are compared as Python floats (the correctly
rounded quotient of the integer counts, so every process gets the same bits); between equal
scores the pair with the higher count(ab) wins, then the smaller ``(left, right)`` by code point.
No hash order or thread timing enters, so the same corpus and config give the same vocabulary
in any process (HF's WordPieceTrainer does not promise that: tokenizers#1794).

Incremental bookkeeping -- why a merge touches only a little:

* ``pair -> words`` finds the words to rewrite (stale entries are skipped when met);
* the words table (:mod:`bpe_engine.training.word_table`, shared with the BPE trainer and the stepper) fuses
  the pair and reports the pair-count changes (HF's ``Word::merge``), so pair counts are never
  recounted;
* a merge also changes count(a), count(b) and count(ab), and with them the score of *every*
  pair containing one of those symbols -- some go up, which a lazy heap cannot discover on its
  own. ``symbol -> pairs`` lists exactly those pairs, and they are pushed again with fresh keys;
* the heap is lazy: a popped entry whose key no longer matches the pair's current key is dropped
  (every change pushed a current one).

The naive oracle in :mod:`.naive` recounts everything per step; the tests require
identical steps.

The config, the alphabet and the starting vocabulary live in :mod:`.setup`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from heapq import heapify, heappop, heappush
from typing import TYPE_CHECKING

from ...corpus import WordCounts
from ..steps import MergeStep, StepWhy, contest
from ..stepwise import StepwiseTraining
from ..word_table import Words, index_formed_pairs
from .setup import (
    WordPieceInitialState,
    WordPieceTrainerConfig,
    count_bert_words,
    initial_state,
    merged_token,
    word_counts_for,
)

if TYPE_CHECKING:  # pragma: no cover
    from ...wordpiece.model import WordPieceTokenizer

__all__ = [
    "WordPieceTrainerConfig",
    "WordPieceTraining",
    "count_bert_words",
    "initial_state",
    "merged_token",
    "train_wordpiece",
    "word_counts_for",
    "wordpiece_tokenizer",
]


def train_wordpiece(
    corpus: WordCounts | Mapping[str, int] | Iterable[str], config: WordPieceTrainerConfig | None = None, *, name: str | None = None
) -> WordPieceTokenizer:
    """Train to the end and return the tokenizer (texts are counted with the config's front end)."""
    training = WordPieceTraining(corpus, config or WordPieceTrainerConfig())
    for _ in training.steps():
        pass
    return training.tokenizer(name)


class WordPieceTraining(StepwiseTraining):
    """One training run, advanced one merge at a time by :meth:`steps` (a UI can stop anywhere).

    Mirrors :class:`bpe_engine.training.bpe.BpeTraining`: ``vocab``, ``merges``, ``notes``,
    ``target_merges``, ``finished`` and :meth:`tokenizer` always reflect the merges made so far.
    """

    def __init__(self, corpus: WordCounts | Mapping[str, int] | Iterable[str], config: WordPieceTrainerConfig | None = None) -> None:
        self.config = config or WordPieceTrainerConfig()
        state = initial_state(word_counts_for(corpus, self.config), self.config)
        self.notes: list[str] = list(state.notes)
        self.merges: list[tuple[str, str]] = []
        self.steps_done: list[MergeStep] = []
        self._finished = False
        self._id_to_tok: list[str] = list(state.tokens)
        self._tok_to_id: dict[str, int] = {t: i for i, t in enumerate(self._id_to_tok)}
        self._initial_size = len(self._id_to_tok)
        self._build(state)

    # -- public API ------------------------------------------------------------------------------
    @property
    def vocab(self) -> dict[str, int]:
        """Token -> id for the merges made so far (a copy)."""
        return dict(self._tok_to_id)

    @property
    def alphabet(self) -> tuple[str, ...]:
        """The starting symbols (``c`` and ``##c`` per kept character), in id order."""
        return tuple(self._id_to_tok[len(self.config.special_tokens):self._initial_size])

    def _record(self, step: MergeStep) -> None:
        self.steps_done.append(step)
        self.merges.append((step.left, step.right))

    def tokenizer(self, name: str | None = None) -> WordPieceTokenizer:
        """A tokenizer over the vocabulary so far, with the front end the training used."""
        return wordpiece_tokenizer(self.config, dict(self._tok_to_id), name or f"wordpiece-{len(self._tok_to_id)}")

    # -- setup -----------------------------------------------------------------------------------
    def _build(self, state: WordPieceInitialState) -> None:
        ids = self._tok_to_id
        self._words = Words(["".join(chr(ids[s]) for s in w) for w in state.words], list(state.counts))
        sym = [0] * len(self._id_to_tok)
        for word, n in zip(self._words.symbols, self._words.counts):
            for s in word:
                sym[ord(s)] += n
        self._sym = sym
        pairs, where = self._words.count_pairs()
        self._pairs = pairs
        self._where: dict[str, set[int]] = {pair: set(words) for pair, words in where.items()}
        self._pairs_of: dict[str, set[str]] = {}
        for pair in pairs:
            self._pairs_of.setdefault(pair[0], set()).add(pair)
            self._pairs_of.setdefault(pair[1], set()).add(pair)
        self._min = max(1, self.config.min_frequency)
        self._heap = [self._entry(p, c) for p, c in pairs.items() if c >= self._min]
        heapify(self._heap)

    def _entry(self, pair: str, count: int) -> tuple[float, int, str, str, str]:
        a, b = ord(pair[0]), ord(pair[1])
        tok = self._id_to_tok
        return (-count / (self._sym[a] * self._sym[b]), -count, tok[a], tok[b], pair)

    # -- one merge -------------------------------------------------------------------------------
    def _next(self) -> MergeStep | None:
        if len(self._tok_to_id) >= self.config.vocab_size:
            return None
        best = self._pop_best()
        if best is None:
            return None
        (a, b), count, score = best
        why = self._why(chr(a) + chr(b), count, score)  # before the merge moves any score
        left, right = self._id_to_tok[a], self._id_to_tok[b]
        new_tok = merged_token(left, right, self.config.continuing_prefix)
        new = self._tok_to_id.get(new_tok)
        if new is None:
            new = len(self._id_to_tok)
            self._id_to_tok.append(new_tok)
            self._tok_to_id[new_tok] = new
            self._sym.append(0)
        words_changed, fused = self._apply_merge(a, b, new)
        return MergeStep(
            rank=len(self.steps_done), left=left, right=right, new=new_tok, left_id=a, right_id=b, new_id=new,
            count=count, words_changed=words_changed, occurrences=fused, score=score, why=why,
        )

    def _pop_best(self) -> tuple[tuple[int, int], int, float] | None:
        heap, pairs, sym = self._heap, self._pairs, self._sym
        while heap:
            neg_score, neg_count, _, _, pair = heappop(heap)
            count = pairs.get(pair, 0)
            a, b = ord(pair[0]), ord(pair[1])
            if count < self._min or count != -neg_count or -neg_score != count / (sym[a] * sym[b]):
                continue  # stale: the pair's current key was pushed when it changed
            return (a, b), count, -neg_score
        return None

    def _why(self, pair: str, count: int, score: float) -> StepWhy:
        """The score that chose ``pair``, the runner-up, and -- on equal scores -- what decided."""
        pairs, sym, tok = self._pairs, self._sym, self._id_to_tok

        def current(entry: tuple[float, int, str, str, str]) -> tuple[float, int, str, str, str] | None:
            neg_score, neg_count, _, _, p = entry
            n = pairs.get(p, 0)
            live = n >= self._min and n == -neg_count and -neg_score == n / (sym[ord(p[0])] * sym[ord(p[1])])
            return entry if live else None  # a stale entry: the pair's current key is in the heap too

        found = contest(self._heap, pair, score, current=current, pair_of=lambda e: e[4], value_of=lambda e: -e[0])
        runner_up = found.runner_up

        def spelled(p: str) -> tuple[str, str]:
            return tok[ord(p[0])], tok[ord(p[1])]

        rule = None
        if found.tied_total and runner_up is not None:
            runner_count = pairs.get(runner_up[0], 0)
            rule = (
                "equal scores: the higher count(ab) won" if runner_count < count
                else "equal scores and counts: the smaller (left, right) by code point won"
            )
        return StepWhy(
            "score", score, spelled(runner_up[0]) if runner_up else None, runner_up[1] if runner_up else None,
            tuple(map(spelled, found.tied)), found.tied_total, rule,
        )

    def _apply_merge(self, a: int, b: int, new: int) -> tuple[int, int]:
        """Fuse ``a b`` everywhere (the words core reports the pair-count changes), then update
        symbol counts, pair counts and the heap."""
        pair = chr(a) + chr(b)
        merge = self._words.merge(pair, chr(new), self._where.pop(pair, ()))
        fused = merge.occurrences
        self._sym[a] -= fused
        self._sym[b] -= fused
        self._sym[new] += fused
        index_formed_pairs(self._where, merge)
        net: dict[str, int] = {}
        for key, n in merge.lost.items():
            net[key] = net.get(key, 0) - n
        for key, n in merge.gained.items():
            net[key] = net.get(key, 0) + n
        net.pop(pair, None)
        self._set_pair(pair, 0)
        for key, d in net.items():
            if d:
                self._set_pair(key, self._pairs.get(key, 0) + d)
        self._repush(pair[0], pair[1], chr(new), net)
        return len(merge.changed), fused

    def _set_pair(self, pair: str, count: int) -> None:
        pairs, pairs_of = self._pairs, self._pairs_of
        if count > 0:
            if pair not in pairs:
                pairs_of.setdefault(pair[0], set()).add(pair)
                pairs_of.setdefault(pair[1], set()).add(pair)
            pairs[pair] = count
        elif pair in pairs:
            del pairs[pair]
            pairs_of[pair[0]].discard(pair)
            pairs_of[pair[1]].discard(pair)

    def _repush(self, a: str, b: str, new: str, delta: Mapping[str, int]) -> None:
        """Push a fresh key for every pair whose score moved: count changed, or a symbol's count did."""
        affected = set(delta)
        for s in (a, b, new):
            affected.update(self._pairs_of.get(s, ()))
        pairs, heap, minimum, sym, tok = self._pairs, self._heap, self._min, self._sym, self._id_to_tok
        for pair in affected:
            count = pairs.get(pair, 0)
            if count >= minimum:  # inlined _entry: this loop is the trainer's hot path
                x, y = ord(pair[0]), ord(pair[1])
                heappush(heap, (-count / (sym[x] * sym[y]), -count, tok[x], tok[y], pair))
        if len(heap) > 4 * len(pairs) + 1024:  # drop stale entries now and then
            self._heap = [self._entry(p, c) for p, c in pairs.items() if c >= minimum]
            heapify(self._heap)

    def _note_stop(self) -> None:
        size = len(self._tok_to_id)
        if self._initial_size >= self.config.vocab_size:
            self.notes.append(f"the specials and alphabet alone ({self._initial_size}) fill the vocabulary size {self.config.vocab_size}: no merges")
        elif size >= self.config.vocab_size:
            self.notes.append(f"reached the vocabulary size {self.config.vocab_size} after {len(self.steps_done)} merges")
        else:
            self.notes.append(
                f"stopped at {size} tokens after {len(self.steps_done)} merges: no pair occurs at least "
                f"{self.config.min_frequency} times (the minimum frequency)"
            )


def wordpiece_tokenizer(config: WordPieceTrainerConfig, vocab: dict[str, int], name: str) -> WordPieceTokenizer:
    """The tokenizer of a WordPiece vocabulary, with the front end ``config`` trains with (the one
    way: a training's ``tokenizer()`` and a finished run's model state both come here)."""
    from ...wordpiece.model import WordPieceTokenizer  # late: model imports nothing from here at load time

    return WordPieceTokenizer(
        vocab,
        name=name,
        unk_token=config.unk_token,
        continuing_prefix=config.continuing_prefix,
        max_input_chars_per_word=config.max_input_chars_per_word,
        normalizer=config.normalizer if config.pre_tokenizer is None else None,
        pre_tokenizer=config.pre_tokenizer,
        special_tokens=config.special_tokens,
    )
