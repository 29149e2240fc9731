"""Character <-> byte offsets of one text, and the cleaning every inspected text goes through.

Encodings locate tokens by byte spans (a byte-level token may hold part of a character), while the
inspector and the comparison view draw on a character axis. :class:`TextIndex` converts between the
two once per text, so the per-token work is O(1) lookups instead of re-encoding prefixes.

"Character" means a Python code point (what ``len(text)`` counts). Grapheme clusters -- what a
reader sees as one character, such as a ZWJ family emoji or ``e`` + combining accent -- are offered
as a second, coarser unit for the partial-character view. Whitespace-separated words
(:func:`count_words`) are the denominator of "tokens per word", in Compare's Stats view and in
``bpe-explorer metrics`` alike.

>>> idx = TextIndex("a한")
>>> tuple(idx.char_byte_starts)
(0, 1, 4)
>>> idx.char_at_byte(2), idx.is_char_boundary(2)
(1, False)
"""

from __future__ import annotations

from array import array
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import accumulate, compress

import regex

_GRAPHEME = regex.compile(r"\X")
_SURROGATE = regex.compile(r"[\ud800-\udfff]")
_IS_START = bytes(0 if 0x80 <= b < 0xC0 else 1 for b in range(256))
_WORD = regex.compile(r"[^\s\x1c-\x1f]+")  # exactly the words of str.split()
REPLACEMENT = "\ufffd"


@dataclass(frozen=True, slots=True)
class CleanText:
    """Text made encodable, with a note for every change so nothing is altered silently.

    Lone surrogates (possible in a Python ``str``, never in UTF-8) become U+FFFD one for one, so
    character offsets stay the same as in the original text.
    """

    text: str
    surrogates_replaced: int

    @property
    def notes(self) -> tuple[str, ...]:
        if not self.surrogates_replaced:
            return ()
        n = self.surrogates_replaced
        return (f"{n} lone surrogate{'s' if n != 1 else ''} replaced by U+FFFD (not encodable as UTF-8)",)


def clean_text(text: str) -> CleanText:
    """Replace lone surrogates by U+FFFD, keeping every other character and every offset.

    >>> clean_text("a\\ud800b")
    CleanText(text='a\ufffdb', surrogates_replaced=1)
    """
    cleaned, n = _SURROGATE.subn(REPLACEMENT, text)
    return CleanText(cleaned, n)


def utf8_len(ch: str) -> int:
    """Bytes of one code point in UTF-8 (a lone surrogate counts 3, as in ``surrogatepass``)."""
    cp = ord(ch)
    return 1 if cp < 0x80 else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4


def count_words(text: str) -> int:
    """Whitespace-separated words: the denominator of "tokens per word"."""
    return sum(1 for _ in _WORD.finditer(text))


def word_spans(text: str) -> list[tuple[int, int]]:
    """The ``[start, end)`` character spans of the words :func:`count_words` counts.

    >>> word_spans(" 한국어 text  ")
    [(1, 4), (5, 9)]
    """
    return [m.span() for m in _WORD.finditer(text)]


@lru_cache(maxsize=8)
def index_of(text: str) -> "TextIndex":
    """The :class:`TextIndex` of ``text``, shared: a comparison asks for the same text's index once
    per row (characters, words, alignment, stats), and typing re-asks it on every key."""
    return TextIndex(text)


class TextIndex:
    """Offsets of one text: built once, then answered by table lookups."""

    def __init__(self, text: str) -> None:
        self.text = text
        starts: Sequence[int]
        if text.isascii():
            # bytes are characters: a range answers every lookup in O(1) memory (a tuple of a
            # 2.4 MB text's offsets alone took 86 MB)
            starts = range(len(text) + 1)
        else:
            # A character starts at every byte that is not a continuation byte (10xxxxxx);
            # surrogatepass keeps a lone surrogate as one 3-byte "character" like utf8_len does.
            raw = text.encode("utf-8", "surrogatepass")
            self._start_mask = raw.translate(_IS_START)  # 1 where a character starts; the tables below count it
            # the byte offsets whose mask byte is 1, picked in C (typing into Compare builds this
            # index on every key: a regex match object per character was ~1.7 ms for 5 KB)
            starts = array("q", compress(range(len(raw)), self._start_mask))  # 8 bytes an offset
            starts.append(len(raw))
        self.char_byte_starts: Sequence[int] = starts
        """``char_byte_starts[i]`` is the byte offset where character ``i`` starts; the last entry
        is the total byte length, so character ``i`` is ``[starts[i], starts[i + 1])`` (an
        ``array`` of 8-byte ints, or a ``range`` for ASCII text: a tuple of a 2.4 MB text's
        offsets took 86 MB)."""
        self.n_bytes = starts[-1]

    @cached_property
    def boundary_bytes(self) -> Collection[int]:
        """Byte offsets between characters (both ends included), for O(1) ``in`` tests."""
        starts = self.char_byte_starts
        return starts if isinstance(starts, range) else frozenset(starts)

    @property
    def n_chars(self) -> int:
        return len(self.char_byte_starts) - 1

    @cached_property
    def byte_to_char(self) -> Sequence[int]:
        """``byte_to_char[b]`` is the character holding byte ``b`` (``n_chars`` for ``b = n_bytes``)."""
        if self.n_bytes == self.n_chars:
            return range(self.n_chars + 1)
        # Count character starts up to each byte (started at -1 so no Python-level "- 1" per
        # byte; the first entry is dropped).
        table = array("q", accumulate(self._start_mask, initial=-1))
        del table[0]
        table.append(self.n_chars)
        return table

    @cached_property
    def chars_before_byte(self) -> Sequence[int]:
        """``chars_before_byte[b]``: how many characters start before byte ``b`` -- the end, in
        characters, of a span ending at ``b`` (a character cut at ``b`` counts as touched).
        Comparison rows look every token's end up here."""
        if self.n_bytes == self.n_chars:
            return range(self.n_chars + 1)
        return array("q", accumulate(self._start_mask, initial=0))

    def char_at_byte(self, b: int) -> int:
        """The character whose bytes include ``b`` (clamped into the text)."""
        b = min(max(b, 0), self.n_bytes)
        return self.byte_to_char[b]

    def is_char_boundary(self, b: int) -> bool:
        """True when byte offset ``b`` falls between two characters (or at either end)."""
        if b <= 0 or b >= self.n_bytes:
            return True
        return self.char_byte_starts[self.byte_to_char[b]] == b

    def char_span(self, byte_start: int, byte_end: int) -> tuple[int, int]:
        """The characters a byte span touches, whole or in part: ``[first, last + 1)``.

        An empty byte span maps to an empty character span at the character it sits in.
        """
        first = self.char_at_byte(byte_start)
        if byte_end <= byte_start:
            return (first, first)
        last = self.char_at_byte(byte_end - 1)
        return (first, last + 1)

    def char_bytes(self, i: int) -> tuple[int, int]:
        """Byte span ``[start, end)`` of character ``i``."""
        return (self.char_byte_starts[i], self.char_byte_starts[i + 1])

    @cached_property
    def grapheme_char_starts(self) -> tuple[int, ...]:
        """Character offsets where grapheme clusters start, plus ``n_chars`` at the end."""
        # \X matches every character, so the clusters' lengths laid end to end give the starts (and
        # n_chars last): strings summed in C instead of a match object per cluster
        return tuple(accumulate(map(len, _GRAPHEME.findall(self.text)), initial=0))

    @cached_property
    def grapheme_byte_boundaries(self) -> frozenset[int]:
        """Byte offsets between grapheme clusters."""
        return frozenset(self.char_byte_starts[c] for c in self.grapheme_char_starts)
