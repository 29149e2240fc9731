"""WordPiece merges chosen by the likelihood score (``merge_by="score"``).

Words start as characters: the first plain, every later one prefixed with ``##`` (``hug`` ->
``h ##u ##g``). Each step merges the adjacent pair with the highest

    score(a, b) = count(ab) / (count(a) * count(b))

-- how much more often ``a`` and ``b`` occur together than chance would say, the likelihood gain
of the original WordPiece (as the Hugging Face course teaches it), where BPE takes the raw
count(ab). Merging ``a ##b`` gives ``ab``, ``##a ##b`` gives ``##ab``. The score favours pairs of
rare symbols: on a real corpus it spends the vocabulary on rare pairs before frequent words become
tokens (``merge_by="count"``, :mod:`.by_count`, is what BERT vocabularies are trained with).

Tie-break ("score, count, lexicographic"): scores are compared as Python floats (the correctly
rounded quotient of the integer counts, so every process gets the same bits); between equal
scores the pair with the higher count(ab) wins, then the smaller ``(left, right)`` by code point.
No hash order or thread timing enters, so the same corpus and config give the same vocabulary
in any process.

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

The naive oracle in :mod:`.naive` recounts everything per step; the tests require identical steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from heapq import heapify, heappop, heappush

from ..steps import MergeStep, StepWhy, contest
from ..word_table import Words, index_formed_pairs
from .setup import WordPieceInitialState, WordPieceTrainerConfig, initial_state, merged_token


class ScoreMerges:
    """The merge loop of the likelihood score over one corpus (see the module docstring)."""

    def __init__(self, word_counts: Mapping[str, int], config: WordPieceTrainerConfig) -> None:
        self.config = config
        state = initial_state(word_counts, config)
        self.notes: tuple[str, ...] = state.notes
        self.tokens: list[str] = list(state.tokens)
        self.ids: dict[str, int] = {t: i for i, t in enumerate(self.tokens)}
        self.initial_size = len(self.tokens)
        self.alphabet = tuple(self.tokens[len(config.special_tokens):self.initial_size])
        self._rank = 0
        self._build(state)

    def _build(self, state: WordPieceInitialState) -> None:
        ids = self.ids
        self._words = Words(["".join(chr(ids[s]) for s in w) for w in state.words], list(state.counts))
        sym = [0] * len(self.tokens)
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
        tok = self.tokens
        return (-count / (self._sym[a] * self._sym[b]), -count, tok[a], tok[b], pair)

    # -- one merge -------------------------------------------------------------------------------
    def next(self) -> MergeStep | None:
        """Make the next merge, or None when the vocabulary is full or no pair is left."""
        if len(self.ids) >= self.config.vocab_size:
            return None
        best = self._pop_best()
        if best is None:
            return None
        (a, b), count, score = best
        why = self._why(chr(a) + chr(b), count, score)  # before the merge moves any score
        left, right = self.tokens[a], self.tokens[b]
        new_tok = merged_token(left, right, self.config.continuing_prefix)
        new = self.ids.get(new_tok)
        if new is None:
            new = len(self.tokens)
            self.tokens.append(new_tok)
            self.ids[new_tok] = new
            self._sym.append(0)
        words_changed, fused = self._apply_merge(a, b, new)
        self._rank += 1
        return MergeStep(
            rank=self._rank - 1, left=left, right=right, new=new_tok, left_id=a, right_id=b, new_id=new,
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
        pairs, sym, tok = self._pairs, self._sym, self.tokens

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
        pairs, heap, minimum, sym, tok = self._pairs, self._heap, self._min, self._sym, self.tokens
        for pair in affected:
            count = pairs.get(pair, 0)
            if count >= minimum:  # inlined _entry: this loop is the trainer's hot path
                x, y = ord(pair[0]), ord(pair[1])
                heappush(heap, (-count / (sym[x] * sym[y]), -count, tok[x], tok[y], pair))
        if len(heap) > 4 * len(pairs) + 1024:  # drop stale entries now and then
            self._heap = [self._entry(p, c) for p, c in pairs.items() if c >= minimum]
            heapify(self._heap)

    def stop_note(self, merges: int) -> str:
        """Why training stopped after ``merges`` merges, for the notes."""
        size, asked = len(self.tokens), self.config.vocab_size
        if self.initial_size >= asked:
            return f"the specials and alphabet alone ({self.initial_size}) fill the vocabulary size {asked}: no merges"
        if size >= asked:
            return f"reached the vocabulary size {asked} after {merges} merges"
        return (
            f"stopped at {size} tokens after {merges} merges: no pair occurs at least "
            f"{self.config.min_frequency} times (the minimum frequency)"
        )
