"""The corpus cut into words once, as a frozen table: what the stepper draws and the trainer counts.

Cutting a big corpus (pre-tokenizing it) is the slow, uninterruptible-per-call part of getting
ready to train, and it runs a user's regex. The app therefore cuts the corpus where the work can
be stopped or killed (a worker thread, or the training child process) and hands the result across
as this immutable value; the UI builds its own :class:`~bpe_engine.explore.stepper.Stepper` from it with
:meth:`Stepper.from_words`. Nothing mutable crosses a thread or a process boundary.

The piece spans are packed ``int32`` bytes: a 50 MB corpus has ~12 million pieces, which as
Python ints would cost ten times the memory and pickle ten times slower.

>>> from bpe_engine.pretokenizers import GPT2
>>> words = CorpusWords.from_text("the cat the hat", GPT2)
>>> words.texts, words.counts, list(words.first_pieces())
(('the', ' cat', ' the', ' hat'), (1, 1, 1, 1), [0, 1, 2, 3])
>>> dict(words.word_counts(byte_level=True).counts)
{'the': 1, 'Ġcat': 1, 'Ġthe': 1, 'Ġhat': 1}
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import dataclass
from itertools import accumulate

from ..pretokenizers import PreTokenizer
from . import WordCounts
from .counting import _to_byte_chars  # the counter's own rule, lone surrogates included
from .fast_split import splitter, text_segments

_CHECK_EVERY = 0x1FFF  # pieces between two looks at the cancel flag
PROGRESS_CHARS = 1 << 20
"""How often (in characters cut) :meth:`CorpusWords.building` reports progress."""


class CorpusCancelled(Exception):
    """Raised by :meth:`CorpusWords.from_text` when its ``cancelled`` callback says stop."""


@dataclass(frozen=True, eq=False)
class CorpusWords:
    """Distinct words (first-seen order) with their counts, and the corpus as word ids with spans."""

    texts: tuple[str, ...]
    counts: tuple[int, ...]
    piece_words: bytes
    piece_starts: bytes
    piece_ends: bytes
    first_piece: bytes
    characters: int

    @classmethod
    def from_text(
        cls,
        text: str,
        pre_tokenizer: PreTokenizer,
        *,
        cancelled: Callable[[], bool] | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> CorpusWords:
        """Cut ``text`` with ``pre_tokenizer`` (exactly the pieces a trainer counts).

        ``cancelled`` is polled every few thousand pieces; :class:`CorpusCancelled` is raised
        when it returns True, so a worker can stop promptly on a 10 MB corpus. ``progress`` is
        told how many characters are cut so far, as often as :meth:`building` reports it.
        """
        building = cls.building(text, pre_tokenizer, cancelled=cancelled)
        while True:
            try:
                done = next(building)
            except StopIteration as stop:
                return stop.value
            if progress is not None:
                progress(done)

    @classmethod
    def building(
        cls, text: str, pre_tokenizer: PreTokenizer, *, cancelled: Callable[[], bool] | None = None
    ) -> Generator[int, None, CorpusWords]:
        """:meth:`from_text` a step at a time: yields how many characters are cut so far (about
        every :data:`PROGRESS_CHARS`) and returns the table -- so a run can show its progress
        while a 50 MB corpus is cut (~40 s) and stop between two steps."""
        if cancelled is not None and cancelled():
            raise CorpusCancelled("stopped before cutting the corpus into words")
        pre = pre_tokenizer
        if pre.space_marker is None and pre.pattern is not None and not pre.keeps_unmatched:
            split = splitter(pre)
            pieces: list[str] = []
            done = 0
            report = PROGRESS_CHARS
            for segment in text_segments(text, pre):
                pieces += split(segment)
                done += len(segment)
                if done >= report:
                    if cancelled is not None and cancelled():
                        raise CorpusCancelled("stopped while cutting the corpus into words")
                    yield done
                    report = done + PROGRESS_CHARS
            table = _table_from_pieces(text, pieces)
            if table is not None:
                return table
        return cls._from_spans(text, pre, cancelled)

    @classmethod
    def _from_spans(
        cls, text: str, pre_tokenizer: PreTokenizer, cancelled: Callable[[], bool] | None
    ) -> CorpusWords:
        """The general way, one piece at a time (pre-tokenizers whose pieces leave gaps)."""
        ids: dict[str, int] = {}
        counts: list[int] = []
        first = array("i")
        piece_words = array("i")
        starts = array("i")
        ends = array("i")
        for n, (piece, start, end) in enumerate(pre_tokenizer.split_with_spans(text)):
            if cancelled is not None and not n & _CHECK_EVERY and cancelled():
                raise CorpusCancelled("stopped while cutting the corpus into words")
            wid = ids.get(piece)
            if wid is None:
                wid = ids[piece] = len(counts)
                counts.append(0)
                first.append(n)
            counts[wid] += 1
            piece_words.append(wid)
            starts.append(start)
            ends.append(end)
        return cls(
            tuple(ids),
            tuple(counts),
            piece_words.tobytes(),
            starts.tobytes(),
            ends.tobytes(),
            first.tobytes(),
            len(text),
        )

    def pieces(self) -> tuple[array, array, array]:
        """``(piece_words, piece_starts, piece_ends)`` as fresh int arrays (one copy each)."""
        return _ints(self.piece_words), _ints(self.piece_starts), _ints(self.piece_ends)

    def first_pieces(self) -> array:
        """For each distinct word, the index of its first piece in the corpus."""
        return _ints(self.first_piece)

    def word_counts(self, *, byte_level: bool) -> WordCounts:
        """The trainer's input: the same counts, in the same order, as ``count_words([text], ...)``."""
        keys = [_to_byte_chars(w) for w in self.texts] if byte_level else self.texts
        return WordCounts(dict(zip(keys, self.counts)), byte_level, documents=1, total_words=sum(self.counts))


def _table_from_pieces(text: str, pieces: list[str]) -> CorpusWords | None:
    """The table of ``text`` cut into ``pieces`` (its pre-tokenizer's matches, in order), built with
    whole-list operations that run in C; None when the pieces leave gaps.

    Why: the piece-by-piece loop cost ~4 s on 5 MB (1.25 million pieces), twice the counting of
    ``bpe-explorer train``, so the app trained 2.6x slower than the CLI. When a pre-tokenizer's
    pieces are its matches and they cover the text with no gap (the built-in patterns always do;
    checked here by their total length), every span follows from the lengths, and the counter's own
    fast splitter (:func:`~bpe_engine.corpus.fast_split.splitter`) gives the pieces.
    """
    if sum(map(len, pieces)) != len(text):  # gaps between matches: spans need the matches themselves
        return None
    words = dict.fromkeys(pieces)  # distinct pieces, first-seen order
    index = {word: wid for wid, word in enumerate(words)}
    tally = Counter(pieces)
    # reversed, so the last write for each word is its smallest piece index
    first_seen = dict(zip(reversed(pieces), range(len(pieces) - 1, -1, -1)))
    starts = array("i", accumulate(map(len, pieces), initial=0))
    ends = starts[1:]
    del starts[-1:]
    return CorpusWords(
        tuple(words),
        tuple(tally[w] for w in words),
        array("i", map(index.__getitem__, pieces)).tobytes(),
        starts.tobytes(),
        ends.tobytes(),
        array("i", map(first_seen.__getitem__, words)).tobytes(),
        len(text),
    )


def _ints(data: bytes) -> array:
    out = array("i")
    out.frombytes(data)
    return out
