"""Re-encode only what changed: a text cut at line starts, each line's encoding cached.

Typing one key into a 5 KB text changes one line, yet a comparison re-encodes seven rows of the
whole text. For most tokenizers a line start is a hard boundary, so the encoding of the text is
the encodings of its segments laid end to end; the comparison then re-encodes only segments it
has not seen (an LRU cache keyed by tokenizer, special mode and segment text). The same holds for
what the comparison lays on the characters -- each token's characters, the boundaries, the split
characters, the partial flags -- so those are cached per segment too (:meth:`SegmentCache.row`).

The text is cut at its line starts (:func:`bpe_engine.corpus.blocks.cut_points`): before character
``i`` when ``text[i - 1]`` is a newline, ``text[i - 2]`` is not whitespace and ``text[i]`` is not
whitespace. Then no piece of the GPT-2, cl100k or o200k regex
crosses it (the newline ends a piece that cannot take letters, digits or punctuation after it,
and no whitespace run continues across it), whitespace-split models (words, WordPiece, ``</w>``)
split there anyway, and no special token contains a newline. Each tokenizer declares whether this
holds for it (``capabilities.line_safe``, from its pre-tokenizer's ``line_safe``); the others (the
``▁`` style, which prepends a marker to the text; no pre-tokenizer; custom regexes) are always
encoded whole, as are tokenizers that add tokens of their own around the text (BERT's ``[CLS]``
... ``[SEP]``: ``capabilities.adds_specials``). ``tests/engine/test_compare_segments.py`` checks
stitched == whole.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from itertools import chain
from typing import Any, NamedTuple

from ..core.text_index import TextIndex
from ..corpus.blocks import cut_points
from ..inspect.partial import partial_flags
from ..types import Encoding, SpecialMode
from .align import RowAlignment, align_row

MAX_ENTRIES = 16384  # ~200 KB of text in seven rows at ~20 KB an entry; past that a key costs >0.5 s anyway
RECENT_TOKENIZERS = 16  # the rows a comparison may hold at once, with room for a change of rows


class _Entry:
    """One segment's encoding, its UTF-8 length, and what is laid on the text from it, moved to
    the offsets it was last seen at (typing at the end leaves every earlier segment where it was:
    no tuple is rebuilt).

    A segment's alignment and partial flags depend on the segment alone: a cut is a character
    boundary that no token crosses, so its tokens' characters, boundaries and split characters in
    the text are its own moved by the segment's start."""

    __slots__ = ("tokenizer", "encoding", "n_bytes", "moved", "_here", "_placed")

    def __init__(self, tokenizer: Any, encoding: Encoding, n_bytes: int) -> None:
        self.tokenizer, self.encoding, self.n_bytes = tokenizer, encoding, n_bytes
        self.moved: dict[int, tuple[tuple[int, int], ...]] = {}
        self._here: tuple[RowAlignment, tuple[bool, ...]] | None = None  # on its own characters
        self._placed: tuple[int, RowAlignment] | None = None  # where it was last laid, and how

    def spans_at(self, offset: int) -> tuple[tuple[int, int], ...]:
        spans = self.moved.get(offset)
        if spans is None:
            spans = tuple([(s + offset, e + offset) for s, e in self.encoding.byte_spans])
            if len(self.moved) >= 2:
                self.moved.clear()
            self.moved[offset] = spans
        return spans

    @property
    def partial(self) -> tuple[bool, ...]:
        """Which tokens hold part of a character (where the segment sits does not matter)."""
        return self._aligned_here()[1]

    def aligned_at(self, start: int) -> RowAlignment:
        """The segment's alignment moved to character ``start`` of the text (frozensets, which
        the row's union merges without hashing again: tuples took ~30 % longer at 20 KB)."""
        placed = self._placed
        if placed is not None and placed[0] == start:
            return placed[1]
        here = self._aligned_here()[0]
        if start == 0:
            moved = here
        else:
            moved = RowAlignment(
                frozenset([c + start for c in here.boundaries]),
                frozenset([c + start for c in here.split_chars]),
                tuple([c + start for c in here.token_starts]),
                tuple([c + start for c in here.token_ends]),
                here.n_chars,
            )
        self._placed = (start, moved)
        return moved

    def _aligned_here(self) -> tuple[RowAlignment, tuple[bool, ...]]:
        if self._here is None:  # its own index: the shared one keeps the few whole texts
            index = TextIndex(self.encoding.text)
            self._here = (align_row(self.encoding, index), partial_flags(self.encoding, index))
        return self._here


class Stitched(NamedTuple):
    """A row of the whole text built from its segments' cached pieces."""

    encoding: Encoding
    alignment: RowAlignment
    partial: tuple[bool, ...]


class SegmentCache:
    """LRU of segment encodings; holds the tokenizer objects so their ids stay unique.

    It holds every segment of the last text for every tokenizer used lately (up to
    :data:`MAX_ENTRIES`): a bound below that evicted each row's segments while the next rows were
    filled, and a 100 KB text (1,229 lines, six rows) was encoded whole on every key, ~1.1 s
    instead of ~0.22 s (its entries then take ~145 MB)."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._tokenizers: OrderedDict[int, None] = OrderedDict()  # ids of the last few tokenizers used
        self._data: OrderedDict[tuple[int, str, str], _Entry] = OrderedDict()
        self._lock = threading.Lock()
        self._last_cut: tuple[str, list[int]] | None = None
        self._bound = size

    def encode(self, tokenizer: Any, text: str, mode: SpecialMode, encode: Callable[[Any, str, SpecialMode], Encoding]) -> Encoding:
        """``encode(tokenizer, text, mode)``, stitched from cached segments when safe."""
        placed = self._segments(tokenizer, text, mode, encode)
        return encode(tokenizer, text, mode) if placed is None else _stitch_encoding(text, placed)

    def row(self, tokenizer: Any, text: str, mode: SpecialMode, encode: Callable[[Any, str, SpecialMode], Encoding]) -> Stitched | None:
        """The encoding with its alignment and partial flags, all stitched from cached segments;
        None when the text is not cut for this tokenizer (align the whole text then). Typing into
        a 5 KB text then re-aligns one line per row, not every token of it."""
        placed = self._segments(tokenizer, text, mode, encode)
        if placed is None:
            return None
        pieces = [entry.aligned_at(start) for entry, start, _ in placed]
        alignment = RowAlignment(
            frozenset().union(*(piece.boundaries for piece in pieces)),
            frozenset().union(*(piece.split_chars for piece in pieces)),
            tuple(chain.from_iterable(piece.token_starts for piece in pieces)),
            tuple(chain.from_iterable(piece.token_ends for piece in pieces)),
            len(text),
        )
        partial = tuple(chain.from_iterable(entry.partial for entry, _, _ in placed))
        return Stitched(_stitch_encoding(text, placed), alignment, partial)

    def _segments(self, tokenizer: Any, text: str, mode: SpecialMode, encode: Callable[[Any, str, SpecialMode], Encoding]) -> list[tuple[_Entry, int, int]] | None:
        """Each segment's entry with its character and byte start; None when not cut."""
        points = self._cut(text)
        caps = tokenizer.capabilities
        if len(points) == 1 or not caps.line_safe or caps.adds_specials:  # [CLS] ... [SEP] wraps the whole
            return None
        with self._lock:
            self._tokenizers[id(tokenizer)] = None
            self._tokenizers.move_to_end(id(tokenizer))
            while len(self._tokenizers) > RECENT_TOKENIZERS:
                self._tokenizers.popitem(last=False)
            self._bound = max(self._size, min(MAX_ENTRIES, len(points) * len(self._tokenizers) + self._size // 4))
        placed = []
        offset = 0
        for start, end in zip(points, [*points[1:], len(text)]):
            entry = self._get(tokenizer, text[start:end], mode, encode)
            placed.append((entry, start, offset))
            offset += entry.n_bytes
        return placed

    def _cut(self, text: str) -> list[int]:
        """``cut_points(text)``, once for all the rows of one comparison (they share the text)."""
        last = self._last_cut
        if last is not None and last[0] is text:
            return last[1]
        points = cut_points(text)
        self._last_cut = (text, points)
        return points

    def _get(self, tokenizer: Any, segment: str, mode: SpecialMode, encode: Callable[[Any, str, SpecialMode], Encoding]) -> _Entry:
        key = (id(tokenizer), mode, segment)
        with self._lock:
            hit = self._data.get(key)
            if hit is not None and hit.tokenizer is tokenizer:
                self._data.move_to_end(key)
                return hit
        entry = _Entry(tokenizer, encode(tokenizer, segment, mode), len(segment.encode("utf-8", "surrogatepass")))
        with self._lock:
            self._data[key] = entry
            while len(self._data) > self._bound:
                self._data.popitem(last=False)
        return entry


def _stitch_encoding(text: str, placed: list[tuple[_Entry, int, int]]) -> Encoding:
    """The segments' encodings laid end to end: ``text``'s encoding."""
    ids: list[int] = []
    tokens: list[str] = []
    spans: list[tuple[int, int]] = []
    special: list[bool] = []
    unknown: list[bool] = []
    notes: dict[str, None] = {}
    for entry, _, offset in placed:
        enc = entry.encoding
        ids += enc.ids
        tokens += enc.tokens
        special += enc.special
        unknown += enc.unknown
        notes.update(dict.fromkeys(enc.notes))
        spans += entry.spans_at(offset)
    return Encoding(text, tuple(ids), tuple(tokens), tuple(spans), tuple(special), tuple(unknown), tuple(notes))
