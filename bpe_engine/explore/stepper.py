"""The corpus segmented with the first *k* merges, moved one merge at a time.

The explorer lets a user walk a merge list forwards and backwards while the corpus view follows.
Re-segmenting a 1 MB corpus from scratch for every step would take seconds, so the stepper keeps
the segmentation of every distinct word and only touches what merge *k* can change:

* forward applies merge *k* to the words that contain its pair, on the words table of
  :mod:`bpe_engine.training.word_table` through :class:`~bpe_engine.explore.segmentation.CorpusSegmentation` (a pair -> words
  index, a superset of the current pairs);
* backward pops the undo log entry of the last step (word ids only) and restores the words it
  changed: the merge's new token split again, or the word's old symbols where it held that token
  already (two merges can make the same string).

The stepper is UI-free and takes its merges as a live sequence (anything with ``left``, ``right``
and ``new``, e.g. :class:`~bpe_engine.types.MergeStep`), so the app can keep appending merges while
a trainer is still running and step through the ones that have arrived.

>>> s = Stepper.from_text("low lower lowest", NONE_SPLIT, byte_level=False, merges=[("l", "o", "lo"), ("lo", "w", "low")])
>>> s.forward().words_changed, s.word_symbols(0)
(1, ('lo', 'w', ' ', 'lo', 'w', 'e', 'r', ' ', 'lo', 'w', 'e', 's', 't'))
>>> s.forward().occurrences, s.token_count
(3, 10)
>>> [prefix + node.token for prefix, node in render_tree(s.derivation("low"))]
['low', '├─ lo', '│  ├─ l', '│  └─ o', '└─ w']
"""

from __future__ import annotations

import heapq
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from ..corpus.block_text import Text
from ..corpus.cut import CorpusCancelled, CorpusWords
from ..pretokenizers import NONE, EndOfWord, PreTokenizer
from .corpus_pieces import CorpusPieces
from .initial_types import InitialTypes
from .train_stepper import Explains
from .merge_tree import MergeIndex, MergeNode, render_tree  # noqa: F401 - render_tree: the doctest above
from .segmentation import Applied, CorpusSegmentation
from .surfaces import token_bytes_of
from .word_changes import MergeLike, StepChange, UndoEntry, WordChange, before_after, initial_symbols, spell_out

NONE_SPLIT = NONE  # re-exported for the doctest above: the whole text is one word


StepperCancelled = CorpusCancelled
"""Raised by :meth:`Stepper.from_text` when its ``cancelled`` callback says stop (the corpus is
cut by :class:`~bpe_engine.corpus.cut.CorpusWords`)."""


class Stepper:
    """The segmentation of a corpus after ``step`` merges, moved by :meth:`forward` /
    :meth:`backward` / :meth:`seek`.

    ``words`` are the distinct words' initial symbols in first-seen order, ``counts`` their
    frequencies; ``pieces`` is where each word stands in the corpus (for drawing it; none when
    only the words are stepped).
    """

    explains: Explains = "merges"
    models_per_step: bool = False
    merges_at = None  # one merge per step (a stepper over collapsed blocks maps steps to merges)

    def __init__(
        self,
        words: Sequence[tuple[str, ...]],
        counts: Sequence[int],
        merges: Sequence[MergeLike | tuple[str, str, str]],
        *,
        pieces: CorpusPieces | None = None,
        byte_level: bool = False,
    ) -> None:
        self.merges = merges
        self.byte_level = byte_level
        self.counts = list(counts)
        self.pieces = pieces if pieces is not None else CorpusPieces()
        self._seg = CorpusSegmentation(words, self.counts)
        self._undo: list[UndoEntry] = []
        self._last: tuple[UndoEntry, StepChange] | None = None
        self._index = MergeIndex(to_bytes=_byte_symbol_bytes if byte_level else None)  # grows with the merges
        self.word_texts: Sequence[str] = ()  # the distinct pieces, when built from a cut corpus
        self.token_count = self._seg.token_count()
        self.initial_token_count = self.token_count
        self.initial_types = InitialTypes(self._seg.initial, self.counts, self._seg.tokens)
        """Each token type's count before any merge, as a call a worker may make on its own."""

    @property
    def characters(self) -> int:
        """The corpus length (0 without pieces)."""
        return self.pieces.characters

    # -- construction ----------------------------------------------------------------------------
    @classmethod
    def from_text(
        cls,
        text: Text,
        pre_tokenizer: PreTokenizer,
        *,
        byte_level: bool,
        merges: Sequence[MergeLike | tuple[str, str, str]],
        continuing_prefix: str | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Stepper:
        """Pre-tokenize ``text`` and build a stepper at step 0 (what the app does per corpus).

        ``cancelled`` is polled every few thousand pieces (a 10 MB corpus takes seconds) and
        :class:`StepperCancelled` is raised when it returns True, so a worker can stop promptly.
        The distinct pieces are kept in :attr:`word_texts` (first-seen order, with counts in
        :attr:`counts`): the same word counts a trainer needs, without a second pass.
        """
        words = CorpusWords.from_text(text, pre_tokenizer, cancelled=cancelled)
        return cls.from_words(
            words,
            byte_level=byte_level,
            merges=merges,
            end_of_word_suffix=pre_tokenizer.end_of_word_suffix,
            end_of_word=pre_tokenizer.end_of_word,
            continuing_prefix=continuing_prefix,
        )

    @classmethod
    def from_words(
        cls,
        words: CorpusWords,
        *,
        byte_level: bool,
        merges: Sequence[MergeLike | tuple[str, str, str]],
        end_of_word_suffix: str | None = None,
        end_of_word: EndOfWord = "attached",
        continuing_prefix: str | None = None,
    ) -> Stepper:
        """A stepper at step 0 over a corpus already cut into words (off the UI thread, or in
        the training child): the app builds its own stepper from that frozen table.
        ``end_of_word_suffix`` / ``end_of_word`` are the pre-tokenizer's ``</w>`` and its convention."""
        symbols = [
            initial_symbols(
                w, byte_level=byte_level, end_of_word_suffix=end_of_word_suffix, end_of_word=end_of_word,
                continuing_prefix=continuing_prefix,
            )
            for w in words.texts
        ]
        stepper = cls(symbols, words.counts, merges, pieces=CorpusPieces.of_cut(words), byte_level=byte_level)
        stepper.word_texts = words.texts
        return stepper

    # -- state -----------------------------------------------------------------------------------
    @property
    def step(self) -> int:
        """How many merges are applied (0 = the initial alphabet segmentation)."""
        return len(self._undo)

    @property
    def available(self) -> int:
        """How many merges exist to step through (grows while a trainer runs)."""
        return len(self.merges)

    @property
    def tokens_per_char(self) -> float:
        return self.token_count / self.characters if self.characters else 0.0

    @property
    def word_count(self) -> int:
        return len(self.counts)

    def initial_type_counts(self) -> dict[str, int]:
        """Each token type's count in the corpus before any merge (its string in the model's
        alphabet, as merges name tokens): :attr:`initial_types`, called."""
        return self.initial_types()

    def word_symbols(self, word_id: int) -> tuple[str, ...]:
        """The word's tokens at the current step."""
        return self._seg.symbols(word_id)

    def merge_at(self, rank: int) -> tuple[str, str, str]:
        m = self.merges[rank]
        if isinstance(m, tuple):
            return m
        return m.left, m.right, m.new

    # -- moving ----------------------------------------------------------------------------------
    def forward(self) -> StepChange:
        """Apply the next merge to the words that contain its pair."""
        self._forward()
        change = self.last_change()
        assert change is not None
        return change

    def _forward(self) -> None:
        rank = self.step
        if rank >= len(self.merges):
            raise IndexError(f"no merge {rank + 1}: only {len(self.merges)} merges are available")
        applied = self._seg.apply(*self.merge_at(rank))
        self.token_count -= applied.occurrences
        self._undo.append(UndoEntry(rank, array("i", applied.changed), applied.occurrences, applied.pair_count, applied.kept or None))

    def backward(self) -> StepChange:
        """Undo the last applied merge: split its new token back in the words it changed."""
        if not self._undo:
            raise IndexError("already at step 0: no merge to undo")
        entry = self._undo[-1]
        change = self._change(entry)
        self._backward()
        return change

    def _backward(self) -> None:
        entry = self._undo.pop()
        merge = self.merge_at(entry.rank)
        seg = self._seg
        seg.unapply(seg.symbol(merge[0]) + seg.symbol(merge[1]), [(wid, before) for wid, before, _ in before_after(seg, merge, entry)])
        self.token_count += entry.occurrences

    def seek(self, step: int, *, until: float | None = None) -> bool:
        """Move to ``step`` merges applied (clamped to what is available); True once there.

        With ``until`` (a :func:`time.perf_counter` time) it stops after the first merge that
        ends past it and returns False, not there yet: a far jump on a big corpus takes a while
        (to the last of 7,744 merges of a 10 MB corpus, ~0.7 s), and the app moves in slices so
        that it keeps drawing and reading keys. Going back, it undoes merge by merge or restarts
        from the initial words and goes forward, whichever rewrites fewer words (g on a 5 MB
        corpus at 3,744 merges: ~35 ms instead of ~180).
        """
        step = max(0, min(step, len(self.merges)))
        if step < self.step and self._cheaper_from_the_start(step):
            self._restart()
        clock = time.perf_counter
        while self.step > step:
            self._backward()  # no per-word report: a seek only moves
            if until is not None and clock() > until:
                return self.step == step
        while self.step < step:
            self._forward()
            if until is not None and clock() > until:
                return self.step == step
        return True

    def _cheaper_from_the_start(self, step: int) -> bool:
        """Whether reaching ``step`` (below the current one) from step 0 rewrites fewer words than
        undoing down to it; a merge's cost either way is the words it changed."""
        undo = self._undo
        if step == 0:
            return True
        forward = sum(len(entry.word_ids) for entry in undo[:step])
        return forward < sum(len(entry.word_ids) for entry in undo[step:])

    def _restart(self) -> None:
        """Back to step 0 in one move (:meth:`CorpusSegmentation.restart`)."""
        seg = self._seg

        def emptied() -> Iterator[tuple[str, array]]:
            for entry in self._undo:
                if entry.word_ids:
                    left, right, _ = self.merge_at(entry.rank)
                    yield seg.symbol(left) + seg.symbol(right), entry.word_ids

        seg.restart(emptied())
        self._undo.clear()
        self.token_count = self.initial_token_count

    def replay(self, merges: Sequence[tuple[str, str, str]]) -> Iterator[Applied]:
        """What each of ``merges`` does when applied in order from step 0 -- pair count, words
        changed, tokens fused (:class:`~bpe_engine.explore.segmentation.Applied`) -- measured on a copy of
        the step-0 words, leaving this stepper where it is. A loaded tokenizer file has merges but
        no counts; this measures them on the corpus without pre-tokenizing it a second time."""
        return self._seg.fresh().replay(merges)

    # -- questions the app asks ------------------------------------------------------------------
    def last_change(self) -> StepChange | None:
        """What the most recent merge (rank ``step - 1``) changed, with before/after per word.

        The undo log keeps only word ids (memory and garbage-collector friendly on big corpora);
        the words' "before" forms are rebuilt by splitting the merge's new token again.
        """
        if not self._undo:
            return None
        entry = self._undo[-1]
        if self._last is not None and self._last[0] is entry:
            return self._last[1]
        result = self._change(entry)
        self._last = (entry, result)  # the app asks several times per step; entries are immutable
        return result

    def last_change_top(self, limit: int) -> StepChange | None:
        """:meth:`last_change` with only the ``limit`` most frequent words spelled out (count
        descending, then word id); ``words_changed`` still counts every word.

        Why: a view shows a handful of words, and on a 5 MB corpus an early merge rewrites
        thousands; spelling every one out was most of a step's time in the app.
        """
        if not self._undo:
            return None
        entry = self._undo[-1]
        counts = self.counts
        top = heapq.nsmallest(limit, entry.word_ids, key=lambda wid: (-counts[wid], wid))
        change = self._change(replace(entry, word_ids=array("i", top)))
        return replace(change, words_changed=len(entry.word_ids))

    def last_changed_word_ids(self) -> array:
        """The ids of every word the last merge changed (a copy; empty at step 0)."""
        return array("i", self._undo[-1].word_ids) if self._undo else array("i")

    def _change(self, entry: UndoEntry) -> StepChange:
        return spell_out(self._seg, self.merge_at(entry.rank), entry, self.counts)

    def derivation(self, token: str, *, before: int | None = None) -> MergeNode:
        """Which merges built ``token``, using merges ranked below ``before`` (default: all known):
        the one merge tree of the engine (:class:`~bpe_engine.explore.merge_tree.MergeIndex`),
        extended as merges arrive. A token counts as created by the first merge whose ``new`` it is.
        """
        index, available = self._index, len(self.merges)
        limit = available if before is None else min(before, available)
        # Only the merges below the limit can take part: while a run streams thousands of merges a
        # second, the app's step at k catches up to k, not to every merge made so far.
        if len(index) < limit:
            index.extend(self.merge_at(rank) for rank in range(len(index), limit))
        return index.tree(token, before=limit, base=_is_byte_symbol if self.byte_level else None)

    def first_piece_of(self, word_ids: Sequence[int]) -> int | None:
        """Index of the first corpus piece whose word is in ``word_ids`` (for scrolling to it)."""
        return self.pieces.first_of(word_ids)

    # -- the Train tab's protocol (bpe_engine.explore.train_stepper.TrainStepper) -----------------------
    def feed(self, steps: Sequence[Any]) -> None:
        """Merges that arrived since the last call (the stepper keeps its own list of them)."""
        if not isinstance(self.merges, list):
            self.merges = list(self.merges)
        self.merges.extend(steps)

    def prepare(self) -> None:
        """Nothing to make: a merge stepper draws at once."""

    def tokenizer_at(self, step: int) -> None:  # noqa: ARG002 - the model at k is the finished one's prefix
        return None

    def detail(self) -> tuple[()]:
        """A merge is explained by its words and its tree (``explains == "merges"``)."""
        return ()

    def story(self, piece: str) -> None:  # noqa: ARG002 - merges keep no stories
        return None

    def step_at(self, rank: int) -> Any:
        """The step of merge ``rank`` as fed (a :class:`~bpe_engine.training.steps.MergeStep`
        with its why), or None when it was given as a plain triple."""
        merge = self.merges[rank]
        return None if isinstance(merge, tuple) else merge

    # -- what the corpus view draws (the interface every stepper offers) ------------------------------
    def window(self, text: Text, start: int, end: int) -> Iterator[tuple[int, int, tuple[str, ...]]]:  # noqa: ARG002
        """``(start, end, tokens)`` of each corpus piece overlapping ``[start, end)`` at this step."""
        symbols = self.word_symbols
        for word_id, p_start, p_end in self.pieces_between(start, end):
            yield p_start, p_end, symbols(word_id)

    def ready(self) -> bool:
        """A merge stepper draws at once (a Unigram one may first build its step's model)."""
        return True

    def highlight(self) -> str | None:
        """The token the last applied merge made (the view marks it)."""
        return self.merge_at(self.step - 1)[2] if self.step else None

    def focus(self) -> int | None:
        """Where the last step changed the corpus: the first character of the first piece it
        rewrote (None at step 0 or when it rewrote no piece)."""
        changed = self.last_changed_word_ids()
        first = self.first_piece_of(changed) if changed else None
        return None if first is None else self.pieces.starts[first]

    def pieces_between(self, start_char: int, end_char: int) -> Iterator[tuple[int, int, int]]:
        """``(word_id, start, end)`` of the pieces overlapping ``[start_char, end_char)``."""
        return self.pieces.between(start_char, end_char)


def _byte_symbol_bytes(token: str) -> bytes:
    """The bytes of a byte-level symbol string (GPT-2 byte characters)."""
    return token_bytes_of(token)


def _is_byte_symbol(token: str) -> bool:
    return len(token) == 1


__all__ = ["MergeLike", "StepChange", "Stepper", "StepperCancelled", "WordChange", "initial_symbols"]
