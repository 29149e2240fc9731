"""Where each distinct word stands in the corpus: the pieces a stepper draws a window of.

The corpus as a sequence of word ids with character spans (``words[i]`` is piece ``i``'s word,
``starts[i]``/``ends[i]`` its span) and, for each word, its first piece (to scroll to a word). A
stepper segments distinct words; these say which of them to draw where.

The sequences are read in place: from a :class:`~bpe_engine.corpus.cut.CorpusWords` they are
views of its packed bytes, never copies (a 50 MB corpus has ~12 million pieces, 48 MB per
sequence; the stepper held a second set of them).

>>> p = CorpusPieces([0, 1, 0], [0, 2, 5], [2, 5, 7], characters=7)
>>> list(p.between(3, 6)), p.first_of([1, 0]), p.first_of([7])
([(1, 2, 5), (0, 5, 7)], 0, None)
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Iterator, Sequence

from ..corpus.cut import CorpusWords


class CorpusPieces:
    """The corpus as pieces: each one's word id and character span, and each word's first piece."""

    __slots__ = ("words", "starts", "ends", "characters", "_first")

    def __init__(
        self,
        words: Sequence[int] = (),
        starts: Sequence[int] = (),
        ends: Sequence[int] = (),
        *,
        characters: int = 0,
        first: Sequence[int] | None = None,
    ) -> None:
        """``first[w]`` is word ``w``'s first piece; found from ``words`` when not given."""
        self.words, self.starts, self.ends = _ints(words), _ints(starts), _ints(ends)
        self.characters = characters
        self._first: Sequence[int] = _ints(first) if first is not None else _first_pieces(self.words)

    @classmethod
    def of_cut(cls, cut: CorpusWords) -> CorpusPieces:
        """The pieces of a cut corpus, read in place."""
        words, starts, ends = cut.pieces()
        return cls(words, starts, ends, characters=cut.characters, first=cut.first_pieces())

    def __len__(self) -> int:
        return len(self.words)

    def between(self, start_char: int, end_char: int) -> Iterator[tuple[int, int, int]]:
        """``(word_id, start, end)`` of the pieces overlapping ``[start_char, end_char)``."""
        starts, ends, words = self.starts, self.ends, self.words
        i = max(bisect.bisect_right(starts, start_char) - 1, 0)
        n = len(words)
        while i < n and starts[i] < end_char:
            if ends[i] > start_char:
                yield words[i], starts[i], ends[i]
            i += 1

    def first_of(self, word_ids: Sequence[int]) -> int | None:
        """Index of the first piece whose word is in ``word_ids`` (None: none of them occurs)."""
        first, n = self._first, len(self._first)
        found = [first[w] for w in word_ids if 0 <= w < n and first[w] >= 0]
        return min(found) if found else None


def _ints(values: Sequence[int]) -> Sequence[int]:
    """``values`` packed when given as Python ints (a list, a tuple); a compact sequence (a view of
    the cut's bytes, an array, ends that follow from the starts) is read as it is."""
    if isinstance(values, (list, tuple, range)):
        return array("i", values)
    return values


def _first_pieces(words: Sequence[int]) -> Sequence[int]:
    """Each word's first piece (-1 for a word id below the largest that never occurs)."""
    first: dict[int, int] = {}
    for i, w in enumerate(words):
        first.setdefault(w, i)
    out = array("i", [-1]) * (max(first, default=-1) + 1)
    for w, i in first.items():
        out[w] = i
    return out
