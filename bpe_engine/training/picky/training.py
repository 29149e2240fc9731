"""PickyBPE training: the BPE loop, and after each merge the removal of parts that only lived inside it.

Chizhov et al., "BPE Gets Picky" (EMNLP 2024). Each merge of ``x y`` into ``xy`` is checked, for
``x`` and then ``y``: when the part's intersection-over-self -- how much of it the new token used up
-- passes τ, the part is *removed*: every place it still occurs is split back into its own parts,
and it leaves the vocabulary. A later merge that makes it again *restores* it (same id).

Exact against ``pickybpe-bauwenst`` 1.3.1 (the tests replay its trainer), including its bookkeeping:

* pair counts are **non-overlapping within a word** (``a a a`` holds ``(a, a)`` once), and they are
  kept up to date the way 1.3.1 keeps them -- each merge adds the pairs it formed with the new token
  and takes as much from the pair each of them replaced -- not recounted; where a word repeats a
  pattern (``▁III``, ``hahaha``) those counts drift from a recount exactly as 1.3.1's do;
* the parts are checked *before* the merge's own pair changes are applied, as 1.3.1 does;
* every merge adds one to the vocabulary size, a removal takes one away.

Two places where 1.3.1 is wrong, done soundly here (docs/training.md says more):

* **1.3.1's removal rewrites nothing.** Its ``Token.remove()`` zeroes the token's frequency and its
  set of words *before* the removal reads them, so the removed token stays in every word it was in,
  its parts gain nothing, and when one of its pairs later wins, the merge stops with ``AssertionError:
  Merged token ... was already absent in the vocabulary``. Here a removal rewrites the words, as the
  code's comments, the original ``pchizhov/picky_bpe`` and the paper intend.
* A pair count can still name a removed token (a count that drifted, or a pair the merge formed with
  a part it then removed); 1.3.1 stops there too. Such a pair occurs in no word: it is dropped,
  with a note of how many.

Ties: 1.3.1 breaks them by heap position; here by the config's rule (``hf``: smaller ids).
"""

from __future__ import annotations

from collections import deque
from heapq import heappush
from collections.abc import Iterable, Iterator

from ...corpus import Document, WordCounts, count_words
from ...errors import ConfigError
from ...pretokenizers import WHITESPACE
from ..bpe.pair_index import PairIndex
from ..bpe.tie_breaks import GreatestRule, IdOrderRule, LexicographicRule, TieBreakRule, tie_rule
from ..steps import MergeStep, StepWhy
from .config import PICKY_SPECIALS, PickyConfig
from .model import PickyModelState, PickyTokenizer
from .setup import initial_state

_SPECIALS = len(PICKY_SPECIALS)  # ids 0-3: the only special tokens
from .steps import PickyEvent, RestoreStep, SplitStep, restore_why, split_why


def pair_runs(word: str) -> dict[str, int]:
    """A word's pairs, counted without overlap: in a run ``a a a`` the second ``(a, a)`` is skipped
    (1.3.1's ``skipImmediateEquals``).

    >>> pair_runs("aaab")
    {'aa': 1, 'ab': 1}
    """
    out: dict[str, int] = {}
    prev = ""
    for k in range(len(word) - 1):
        q = word[k : k + 2]
        if q == prev:
            prev = ""
            continue
        prev = q
        out[q] = out.get(q, 0) + 1
    return out


def _pairs_with(word: str, symbol: str) -> Iterable[tuple[str, int]]:
    """``pair_runs(word)``'s pairs that hold ``symbol``: read off its neighbours where it stands
    alone (the common case), counted with :func:`pair_runs` where it stands twice in a row."""
    if symbol + symbol in word:
        return [(q, n) for q, n in pair_runs(word).items() if symbol in q]
    found: dict[str, int] = {}
    last = len(word) - 1
    j = word.find(symbol)
    while j >= 0:
        if j > 0:
            q = word[j - 1] + symbol
            found[q] = found.get(q, 0) + 1
        if j < last:
            q = symbol + word[j + 1]
            found[q] = found.get(q, 0) + 1
        j = word.find(symbol, j + 1)
    return found.items()


class PickyTraining:
    """One PickyBPE run, advanced one event at a time by :meth:`steps` (resumable)."""

    def __init__(self, corpus: WordCounts | Iterable[Document | str | bytes], config: PickyConfig, *, workers: int = 2) -> None:
        if not isinstance(corpus, WordCounts):
            corpus = count_words(corpus, WHITESPACE, byte_level=False, workers=workers)
        if corpus.byte_level:
            raise ConfigError("PickyBPE trains on characters: count the words character-level")
        self.config = config
        start = initial_state(corpus.counts, config)
        self.vocab, self.words, self.alphabet = start.vocab, start.words, start.alphabet
        self.notes: list[str] = []
        if start.dropped:
            self.notes.append(f"character coverage {config.character_coverage:g}: {len(start.dropped)} rare characters read as [UNK]")
        self.size = len(self.vocab)  # 1.3.1's actual_vocab_size
        self.initial_size = self.size
        self.events: list[PickyEvent] = []
        self.merges: list[tuple[str, str]] = []
        self.finished = False
        self._queue: deque[PickyEvent] = deque()
        self._removed_at: dict[int, int] = {}
        self._made_in: dict[int, list[int]] = {}  # merged token -> words it was put in (a superset)
        self._dropped_stale = 0
        self._pairs = PairIndex(*self._initial_pairs(), self._rule())

    # -- public API ------------------------------------------------------------------------------
    @property
    def target_steps(self) -> int:
        """Merges still to come at least (removals add more): for progress bars."""
        return max(0, self.config.vocab_size - self.initial_size)

    def final_vocab(self) -> dict[str, int]:
        return self.vocab.final_ids()

    def model_state(self, name: str | None = None) -> PickyModelState:
        """The model so far as plain data (the tokenizer is built from it, in any process)."""
        merges = tuple(
            (k, m.left_id, m.right_id, m.new_id)
            for k, e in enumerate(self.events) if not isinstance(e, SplitStep) for m in [e.merge if isinstance(e, RestoreStep) else e]
        )
        splits = tuple((k, e.token_id, e.part_ids) for k, e in enumerate(self.events) if isinstance(e, SplitStep))
        vocab = self.vocab
        return PickyModelState(name or f"picky-{sum(vocab.present)}", tuple(vocab.tokens), tuple(vocab.present), merges, splits)

    def tokenizer(self, name: str | None = None) -> PickyTokenizer:
        return PickyTokenizer(self.model_state(name))

    def __iter__(self) -> Iterator[PickyEvent]:
        return self.steps()

    def steps(self) -> Iterator[PickyEvent]:
        """Every event in order: a merge or restore, then the splits it caused."""
        while True:
            while self._queue:
                yield self._queue.popleft()
            if self.finished or not self._merge_once():
                if not self.finished:
                    self.finished = True
                    self._note_stop()
                return

    # -- one merge and what follows --------------------------------------------------------------
    def _merge_once(self) -> bool:
        if self.size >= self.config.vocab_size:
            return False
        vocab, pairs = self.vocab, self._pairs
        while True:
            top = pairs.pop_best()
            if top is None:
                self._stop = "no-pair"
                return False
            count, pair, where = top
            del pairs.counts[pair]
            a, b = ord(pair[0]), ord(pair[1])
            if vocab.present[a] and vocab.present[b]:
                break
            self._dropped_stale += 1  # a count naming a removed token: no word holds the pair
        why = self._why(pair, count)
        text = vocab.tokens[a] + vocab.tokens[b]
        nid = vocab.ids.get(text)
        removed_at = None
        if nid is None:
            nid = vocab.add(text, 0, (a, b))
        elif not vocab.present[nid]:
            vocab.present[nid] = True
            removed_at = self._removed_at.pop(nid)
        new = chr(nid)
        occurrences, changed, gained = self._fuse(pair, new, where)
        self.size += 1
        vocab.freq[nid] += occurrences
        for t in (a, b):
            vocab.freq[t] -= occurrences
        step = MergeStep(
            rank=len(self.events), left=vocab.tokens[a], right=vocab.tokens[b], new=text, left_id=a, right_id=b,
            new_id=nid, count=count, words_changed=changed, occurrences=occurrences, why=why,
        )
        self.merges.append((vocab.tokens[a], vocab.tokens[b]))
        rank = len(self.events)
        self._emit(step if removed_at is None else RestoreStep(rank, step, removed_at, restore_why(step, removed_at)))
        for part in dict.fromkeys((a, b)):  # left, then right (1.3.1 checks them before its pair update)
            self._scrutinize(part, nid, occurrences)
        self._apply_merge(pair, new, gained)
        return True

    def _fuse(self, pair: str, new: str, where: Iterable[int]) -> tuple[int, int, dict[str, int]]:
        """Fuse ``pair`` in its words; ``(occurrences, words changed, pairs formed with new)``.

        Where the word holds the pair once and no ``new`` yet (nearly always), the pairs formed are
        its two neighbours, gathered per neighbour and summed at the end as :meth:`Words.merge
        <bpe_engine.training.word_table.Words.merge>` does; any other word is recounted."""
        symbols, counts = self.words.symbols, self.words.counts
        index = self._pairs.where
        made_in = self._made_in.setdefault(ord(new), [])
        lefts: dict[str, list[int]] = {}
        rights: dict[str, list[int]] = {}
        gained: dict[str, int] = {}
        occurrences = changed = 0
        for i in dict.fromkeys(where):
            w = symbols[i]
            if pair not in w:
                continue
            changed += 1
            made_in.append(i)
            head, _, tail = w.partition(pair)
            if pair in tail or new in head or new in tail:
                fused = w.replace(pair, new)
                f = counts[i]
                occurrences += (len(w) - len(fused)) * f
                symbols[i] = fused
                for q, n in _pairs_with(fused, new):
                    gained[q] = gained.get(q, 0) + n * f
                    index.setdefault(q, []).append(i)
                continue
            symbols[i] = head + new + tail
            occurrences += counts[i]
            if head:
                lefts.setdefault(head[-1], []).append(i)
            if tail:
                rights.setdefault(tail[0], []).append(i)
        weight = counts.__getitem__
        for found, before in ((lefts, True), (rights, False)):
            for sym, words in found.items():
                q = sym + new if before else new + sym
                gained[q] = gained.get(q, 0) + sum(map(weight, words))
                index.setdefault(q, []).extend(words)
        return occurrences, changed, gained

    def _apply_merge(self, pair: str, new: str, gained: dict[str, int]) -> None:
        """1.3.1's ``_update_pairs_on_merge``: add the pairs formed, take as much from those replaced."""
        counts, heap, entry = self._pairs.counts, self._pairs.heap, self._pairs.rule.entry
        tokens, longest = self.vocab.tokens, self.config.max_token_length
        room = longest - len(tokens[ord(new)]) if ord(new) >= _SPECIALS else -1  # _valid, inlined: hot
        for q, n in gained.items():
            other = ord(q[1] if q[0] == new else q[0])
            if other >= _SPECIALS and len(tokens[other]) <= room:
                c = counts[q] = counts.get(q, 0) + n
                e = entry(c, q, ())
                if e is not None:
                    heappush(heap, e)
        for q, n in gained.items():
            old = (pair[1] if q[0] == new else q[0]) + (pair[0] if q[1] == new else q[1])
            if old in counts:
                left = counts[old] - n
                if left <= 0:
                    del counts[old]
                else:
                    counts[old] = left

    def _scrutinize(self, part: int, child: int, occurrences: int) -> None:
        """Remove ``part`` if its IoS passes τ: split it back into its parts everywhere."""
        vocab, cfg = self.vocab, self.config
        used = vocab.freq[child] if cfg.ios_frequency == "child" else occurrences
        left = vocab.freq[part]
        ios = used / (left + used) if left + used > 0 else 0.0
        if vocab.atomic[part] or not cfg.passes(ios):
            return
        vocab.present[part] = False
        subs = vocab.walk(part)
        for s in subs:
            vocab.freq[s] += left
        vocab.freq[part] = 0
        self.size -= 1
        counts, push = self._pairs.counts, self._pairs.push
        for x, y in zip(subs, subs[1:]):
            q = chr(x) + chr(y)
            if self._valid(q):
                counts[q] = counts.get(q, 0) + left
                push(q)
        obsolete, changed = self._split_words(part, subs)
        first, last, token = chr(subs[0]), chr(subs[-1]), chr(part)
        for q, n in obsolete.items():  # 1.3.1's _update_pairs_on_remove
            edge = (last if q[0] == token else q[0]) + (first if q[1] == token else q[1])
            if self._valid(edge):
                counts[edge] = counts.get(edge, 0) + n
                push(edge)
            counts.pop(q, None)
        rank = len(self.events)
        self._removed_at[part] = rank
        token, parts, made = vocab.tokens[part], tuple(vocab.tokens[s] for s in subs), vocab.tokens[child]
        self._emit(SplitStep(
            rank, token, part, parts, tuple(subs), made, child, ios, cfg.tau, cfg.ios_compare, used, left, changed,
            split_why(token, parts, made, ios, cfg.tau, cfg.ios_compare, used, left),
        ))

    def _split_words(self, part: int, subs: list[int]) -> tuple[dict[str, int], int]:
        """Rewrite ``part`` as ``subs`` in every word; the pairs it was in (weighted) and words changed."""
        symbols, counts = self.words.symbols, self.words.counts
        index, made_in = self._pairs.where, self._made_in
        token, spelled = chr(part), "".join(map(chr, subs))
        removable = [s for s in dict.fromkeys(subs) if not self.vocab.atomic[s]]
        obsolete: dict[str, int] = {}
        changed = 0
        for i in dict.fromkeys(made_in.pop(part, ())):
            w = symbols[i]
            if token not in w:
                continue
            f = counts[i]
            for q, n in pair_runs(w).items():
                if token in q:
                    obsolete[q] = obsolete.get(q, 0) + n * f
            symbols[i] = split = w.replace(token, spelled)
            changed += 1
            for s in removable:
                made_in.setdefault(s, []).append(i)
            for q in pair_runs(split):
                index.setdefault(q, []).append(i)
        return obsolete, changed

    # -- helpers ---------------------------------------------------------------------------------
    def _initial_pairs(self) -> tuple[dict[str, int], dict[str, list[int]]]:
        counts: dict[str, int] = {}
        where: dict[str, list[int]] = {}
        for i, (w, f) in enumerate(zip(self.words.symbols, self.words.counts)):
            for q, n in pair_runs(w).items():
                if self._valid(q):
                    counts[q] = counts.get(q, 0) + n * f
                    where.setdefault(q, []).append(i)
        return counts, where

    def _valid(self, pair: str) -> bool:
        """1.3.1's ``_validate_pair``: no special token, and not longer than the longest token."""
        a, b = ord(pair[0]), ord(pair[1])
        if a < _SPECIALS or b < _SPECIALS:
            return False
        tokens = self.vocab.tokens
        return len(tokens[a]) + len(tokens[b]) <= self.config.max_token_length

    def _rule(self) -> TieBreakRule:
        name = self.config.tie_break
        if name == "hf":
            return IdOrderRule()
        encoded = (lambda t: self.vocab.tokens[t].encode("utf-8"))
        return GreatestRule(encoded) if name == "greatest" else LexicographicRule(encoded)

    def _why(self, pair: str, count: int) -> StepWhy:
        found = self._pairs.contest(pair, count)
        tokens = self.vocab.tokens

        def spelled(p: str) -> tuple[str, str]:
            return tokens[ord(p[0])], tokens[ord(p[1])]

        runner = found.runner_up
        return StepWhy(
            "count", count, spelled(runner[0]) if runner else None, runner[1] if runner else None,
            tuple(map(spelled, found.tied)), found.tied_total, tie_rule(self.config.tie_break) if found.tied_total else None,
        )

    def _emit(self, event: PickyEvent) -> None:
        self.events.append(event)
        self._queue.append(event)

    _stop = "size"

    def _note_stop(self) -> None:
        if self._dropped_stale:
            self.notes.append(
                f"{self._dropped_stale:,} pair counts named a removed token and were dropped (pickybpe 1.3.1 stops "
                "with an AssertionError there)"
            )
        if self._stop == "no-pair" and self.size < self.config.vocab_size:
            self.notes.append(f"no pair left: the vocabulary has {self.size:,} tokens (asked {self.config.vocab_size:,})")
