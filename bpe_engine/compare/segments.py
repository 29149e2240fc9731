"""Re-encode only what changed: a text cut at line starts, each line's encoding cached.

Typing one key into a 5 KB text changes one line, yet a comparison re-encodes seven rows of the
whole text. For most tokenizers a line start is a hard boundary, so the encoding of the text is
the encodings of its segments laid end to end; the comparison then re-encodes only segments it
has not seen (an LRU cache keyed by tokenizer, special mode and segment text).

A cut is made before character ``i`` when ``text[i - 1]`` is a newline, ``text[i - 2]`` is not
whitespace and ``text[i]`` is not whitespace. Then no piece of the GPT-2, cl100k or o200k regex
crosses it (the newline ends a piece that cannot take letters, digits or punctuation after it,
and no whitespace run continues across it), whitespace-split models (words, WordPiece, ``</w>``)
split there anyway, and no special token contains a newline. Tokenizers this cannot be shown for
(the ``▁`` style, which prepends a marker to the text; no pre-tokenizer; custom regexes) are
always encoded whole. ``tests/test_compare_segments.py`` checks stitched == whole.

>>> cut_points("ab\\ncd\\n\\nef\\n gh\\nij")
[0, 3, 14]
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..pretokenizers import CL100K_PATTERN, END_OF_WORD, GPT2_PATTERN, HF_GPT2_PATTERN, O200K_PATTERN
from ..simple_tokenizers import CharacterTokenizer, WhitespaceWordTokenizer
from ..types import Encoding, SpecialMode

SAFE_PATTERNS = frozenset({GPT2_PATTERN, CL100K_PATTERN, O200K_PATTERN, HF_GPT2_PATTERN, END_OF_WORD.pattern})


def cut_points(text: str) -> list[int]:
    """Segment starts (the first is 0; the text's end is implied)."""
    points = [0]
    start = text.find("\n")
    while start != -1:
        i = start + 1
        if 2 <= i < len(text) and not text[i - 2].isspace() and not text[i].isspace():
            points.append(i)
        start = text.find("\n", i)
    return points


def segment_safe(tokenizer: Any) -> bool:
    """True when line starts are hard boundaries for ``tokenizer`` (see the module docstring)."""
    if isinstance(tokenizer, (CharacterTokenizer, WhitespaceWordTokenizer)):
        return True
    pre = getattr(tokenizer, "pre_tokenizer", "missing")
    if type(tokenizer).__name__ == "WordPieceTokenizer" and pre is None:
        return True  # BERT's whitespace/punctuation split
    return pre != "missing" and pre is not None and getattr(pre, "space_marker", None) is None and getattr(pre, "pattern", None) in SAFE_PATTERNS


class _Entry:
    """One segment's encoding, its UTF-8 length, and its spans moved to the offsets it was last
    seen at (typing at the end leaves every earlier segment where it was: no tuple is rebuilt)."""

    __slots__ = ("tokenizer", "encoding", "n_bytes", "moved")

    def __init__(self, tokenizer: Any, encoding: Encoding, n_bytes: int) -> None:
        self.tokenizer, self.encoding, self.n_bytes = tokenizer, encoding, n_bytes
        self.moved: dict[int, tuple[tuple[int, int], ...]] = {}

    def spans_at(self, offset: int) -> tuple[tuple[int, int], ...]:
        spans = self.moved.get(offset)
        if spans is None:
            spans = tuple([(s + offset, e + offset) for s, e in self.encoding.byte_spans])
            if len(self.moved) >= 2:
                self.moved.clear()
            self.moved[offset] = spans
        return spans


class SegmentCache:
    """LRU of segment encodings; holds the tokenizer objects so their ids stay unique."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._data: OrderedDict[tuple[int, str, str], _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def encode(self, tokenizer: Any, text: str, mode: SpecialMode, encode: Callable[[Any, str, SpecialMode], Encoding]) -> Encoding:
        """``encode(tokenizer, text, mode)``, stitched from cached segments when safe."""
        points = cut_points(text)
        if len(points) == 1 or not segment_safe(tokenizer):
            return encode(tokenizer, text, mode)
        ids: list[int] = []
        tokens: list[str] = []
        spans: list[tuple[int, int]] = []
        special: list[bool] = []
        unknown: list[bool] = []
        notes: dict[str, None] = {}
        offset = 0
        for start, end in zip(points, [*points[1:], len(text)]):
            entry = self._get(tokenizer, text[start:end], mode, encode)
            enc = entry.encoding
            ids += enc.ids
            tokens += enc.tokens
            special += enc.special
            unknown += enc.unknown
            notes.update(dict.fromkeys(enc.notes))
            spans += entry.spans_at(offset)
            offset += entry.n_bytes
        return Encoding(text, tuple(ids), tuple(tokens), tuple(spans), tuple(special), tuple(unknown), tuple(notes))

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
            while len(self._data) > self._size:
                self._data.popitem(last=False)
        return entry
