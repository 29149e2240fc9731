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
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from itertools import accumulate, islice

from ..core.block_text import Text, whole
from ..pretokenizers import PreTokenizer
from . import WordCounts
from .counting import _to_byte_chars  # the counter's own rule, lone surrogates included
from .fast_split import splitter, text_segments

_CHECK_EVERY = 0x1FFF  # pieces between two looks at the cancel flag
PROGRESS_CHARS = 1 << 20
"""How often (in characters cut) :meth:`CorpusWords.building` reports progress."""
GROUP_CHARS = 1 << 20
"""Characters whose pieces are added to the table at once (~250,000 pieces, ~15 MB of them)."""


class CorpusCancelled(Exception):
    """Raised by :meth:`CorpusWords.from_text` when its ``cancelled`` callback says stop."""


@dataclass(frozen=True, eq=False)
class CorpusWords:
    """Distinct words (first-seen order) with their counts, and the corpus as word ids with spans.

    ``piece_ends`` is empty when every piece ends where the next one starts (the last one at the
    end of the text): the pieces of every built-in pre-tokenizer, which cover the text. Each end
    then follows from the starts, and 4 bytes a piece (48 MB at 50 MB) are not held.
    """

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
        text: Text,
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
        cls, text: Text, pre_tokenizer: PreTokenizer, *, cancelled: Callable[[], bool] | None = None
    ) -> Generator[int, None, CorpusWords]:
        """:meth:`from_text` a step at a time: yields how many characters are cut so far (about
        every :data:`PROGRESS_CHARS`) and returns the table -- so a run can show its progress
        while a 50 MB corpus is cut (~40 s) and stop between two steps.

        The table grows a group of segments at a time (:class:`_TableBuilder`): only one group's
        pieces are ever held, not the whole corpus's (the pieces of 50 MB as one list peaked at
        ~1.2 GB, and their freed memory stayed with the app)."""
        if cancelled is not None and cancelled():
            raise CorpusCancelled("stopped before cutting the corpus into words")
        pre = pre_tokenizer
        if pre.space_marker is None and pre.pattern is not None and not pre.keeps_unmatched:
            split = splitter(pre)
            table = _TableBuilder()
            group: list[str] = []
            done = grouped = 0
            report = PROGRESS_CHARS
            for segment in text_segments(text, pre):
                group += split(segment)
                grouped += len(segment)
                if grouped >= GROUP_CHARS:
                    if not table.add(group, grouped):
                        break
                    done, group, grouped = done + grouped, [], 0
                if done >= report:
                    if cancelled is not None and cancelled():
                        raise CorpusCancelled("stopped while cutting the corpus into words")
                    yield done
                    report = done + PROGRESS_CHARS
            else:
                if table.add(group, grouped):
                    return table.build(len(text))
        return cls._from_spans(whole(text), pre, cancelled)

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
            b"" if _contiguous(starts, ends, len(text)) else ends.tobytes(),
            first.tobytes(),
            len(text),
        )

    def pieces(self) -> tuple[Sequence[int], Sequence[int], Sequence[int]]:
        """``(piece_words, piece_starts, piece_ends)`` as read-only int views of the table's own
        bytes: no copy (at 50 MB each is 48 MB, and the stepper held a second set of them)."""
        starts = _ints(self.piece_starts)
        ends = _ints(self.piece_ends) if self.piece_ends else NextStarts(starts, self.characters)
        return _ints(self.piece_words), starts, ends

    def first_pieces(self) -> Sequence[int]:
        """For each distinct word, the index of its first piece in the corpus (a view, no copy)."""
        return _ints(self.first_piece)

    def without_pieces(self) -> CorpusWords:
        """The same words and counts without where they are in the corpus: all a trainer reads
        (the training child is sent this, not the ~3 x 4 bytes per piece it never looks at)."""
        return CorpusWords(self.texts, self.counts, b"", b"", b"", b"", self.characters)

    def word_counts(self, *, byte_level: bool) -> WordCounts:
        """The trainer's input: the same counts, in the same order, as ``count_words([text], ...)``."""
        keys = [_to_byte_chars(w) for w in self.texts] if byte_level else self.texts
        return WordCounts(dict(zip(keys, self.counts)), byte_level, documents=1, total_words=sum(self.counts))


class _TableBuilder:
    """The table of a text cut into pieces (its pre-tokenizer's matches, in order), fed a group
    of pieces at a time with whole-list operations that run in C.

    Why whole lists: the piece-by-piece loop cost ~4 s on 5 MB (1.25 million pieces), twice the
    counting of ``bpe-explorer train``, so the app trained 2.6x slower than the CLI. When a
    pre-tokenizer's pieces are its matches and they cover the text with no gap (the built-in
    patterns always do; checked on each group by its total length), every span follows from the
    lengths, and the counter's own fast splitter (:func:`~bpe_engine.corpus.fast_split.splitter`)
    gives the pieces. Why groups: see :meth:`CorpusWords.building`.
    """

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}  # distinct pieces, first-seen order
        self.tally: Counter[str] = Counter()
        self.piece_words = array("i")
        self.starts = array("i")
        self.first = array("i")
        self.characters = 0

    def add(self, pieces: list[str], characters: int) -> bool:
        """Add the next ``pieces``, cut from ``characters`` characters; False when they leave gaps
        (spans then need the matches themselves: the caller cuts piece by piece)."""
        if sum(map(len, pieces)) != characters:
            return False
        ids, base = self.ids, len(self.piece_words)
        fresh = [w for w in dict.fromkeys(pieces) if w not in ids]
        if fresh:
            # reversed, so the last write for each word is its smallest piece index
            first_seen = dict(zip(reversed(pieces), range(base + len(pieces) - 1, base - 1, -1)))
            self.first.extend(map(first_seen.__getitem__, fresh))
            ids.update(zip(fresh, range(len(ids), len(ids) + len(fresh))))
        self.tally.update(pieces)
        self.piece_words.extend(map(ids.__getitem__, pieces))
        self.starts.extend(islice(accumulate(map(len, pieces), initial=self.characters), len(pieces)))
        self.characters += characters
        return True

    def build(self, characters: int) -> CorpusWords:
        """The table; each array goes to bytes and is dropped before the next (one copy at a time)."""
        words = tuple(self.ids)
        packed = []
        for name in ("piece_words", "starts", "first"):
            packed.append(getattr(self, name).tobytes())
            setattr(self, name, array("i"))
        # no gaps (checked group by group): each piece ends where the next starts, no ends kept
        return CorpusWords(words, tuple(map(self.tally.__getitem__, words)), packed[0], packed[1], b"", packed[2], characters)


class NextStarts(Sequence[int]):
    """The ends of pieces that cover the text: each piece's end is the next one's start."""

    __slots__ = ("_starts", "_characters")

    def __init__(self, starts: Sequence[int], characters: int) -> None:
        self._starts = starts
        self._characters = characters

    def __len__(self) -> int:
        return len(self._starts)

    def __getitem__(self, i: int) -> int:  # type: ignore[override]  # ints only, no slices: the stepper's reads
        if i < 0:
            i += len(self._starts)
        if not 0 <= i < len(self._starts):
            raise IndexError("piece index out of range")
        return self._starts[i + 1] if i + 1 < len(self._starts) else self._characters


def _contiguous(starts: array, ends: array, characters: int) -> bool:
    """Whether each piece ends where the next starts and the last at ``characters``."""
    return bool(ends) and ends[-1] == characters and ends[:-1] == starts[1:]


def _ints(data: bytes) -> Sequence[int]:
    """``data`` read as native ``int32`` values, in place (a read-only memoryview)."""
    return memoryview(data).cast("i")
