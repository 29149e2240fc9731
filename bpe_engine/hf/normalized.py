"""A string being normalised, with where each of its characters came from -- HF's alignments.

Hugging Face reports every token's offsets in the *original* text, however much the normaliser and
pre-tokenizer rewrote it. It does so with ``NormalizedString``: beside the normalised text it keeps,
for each normalised character, the span of original characters it stands for, and every rewrite
says how its output characters relate to its input (``tokenizers/src/tokenizer/normalizer.rs``).
This is that structure, in characters instead of UTF-8 bytes (every HF alignment covers whole
characters, so the two are the same) and with *absolute* original offsets, so a slice needs no
shift arithmetic.

The rules are HF's, including its quirks, because offsets must equal HF's:

* :meth:`transform` takes ``(char, change)`` pairs: ``0`` replaces the next input character
  (taking its alignment), ``1`` inserts (taking the alignment of the input character *before* the
  cursor), ``-n`` replaces and then drops ``n`` more. Canonical reordering therefore aligns by
  position, not by source character, exactly as HF does.
* a replacement (:meth:`replace`) aligns its inserted text with the *last* matched character;
* a slice covers the original span from its first character's start to its last one's end.

``sub`` refines byte-level characters: when ByteLevel turns an unchanged original character into
its UTF-8 bytes, ``sub[k]`` is the byte's index inside that character, so token spans can be exact
to the byte (HF's own offsets stay whole characters; :mod:`.pipeline` reports both).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Span = tuple[int, int]


class NormalizedString:
    """Normalised text plus, per character, its original ``[start, end)`` character span."""

    __slots__ = ("text", "align", "start", "end", "sub")

    def __init__(self, text: str, align: list[Span], start: int, end: int, sub: list[int | None] | None = None) -> None:
        self.text = text
        self.align = align
        self.start = start  # HF's offsets_original(): the original span this string stands for
        self.end = end
        self.sub = sub

    @classmethod
    def from_text(cls, text: str, base: int = 0) -> NormalizedString:
        """An unnormalised string whose first character is original character ``base``."""
        return cls(text, [(base + i, base + i + 1) for i in range(len(text))], base, base + len(text))

    def __repr__(self) -> str:
        return f"NormalizedString({self.text!r}, original {self.start}..{self.end})"

    def __len__(self) -> int:
        return len(self.text)

    # -- offsets -------------------------------------------------------------------------------
    def original_span(self, start: int, end: int) -> Span:
        """The original span of normalised characters ``[start, end)`` (HF ``convert_offsets``)."""
        if start >= end:
            return self.start + start, self.start + end  # HF returns an empty range unconverted
        return self.align[start][0], self.align[end - 1][1]

    def slice(self, start: int, end: int) -> NormalizedString:
        """Normalised characters ``[start, end)`` as a string of their own."""
        align = self.align[start:end]
        sub = self.sub[start:end] if self.sub is not None else None
        if not align:
            return NormalizedString("", [], self.start + start, self.start + start)
        return NormalizedString(self.text[start:end], align, align[0][0], align[-1][1], sub)

    # -- rewrites --------------------------------------------------------------------------------
    def transform(self, changes: Iterable[tuple[str, int]], initial_offset: int = 0) -> None:
        """Replace the whole text by ``changes`` (see the module docstring for the rule)."""
        self.transform_range(0, len(self.text), changes, initial_offset)

    def transform_range(self, start: int, end: int, changes: Iterable[tuple[str, int]], initial_offset: int = 0) -> None:
        """Replace normalised characters ``[start, end)`` by ``changes``."""
        old = self.align
        offset = start + initial_offset
        chars: list[str] = []
        align: list[Span] = []
        for ch, change in changes:
            if change > 0:
                align.append(old[offset - 1] if offset >= 1 else (self.start, self.start))
            else:
                align.append(old[offset])
                offset += 1 - change
            chars.append(ch)
        self.text = self.text[:start] + "".join(chars) + self.text[end:]
        self.align = old[:start] + align + old[end:]
        self.sub = None

    def expand(self, rewrite: Callable[[str], str]) -> None:
        """Rewrite each character into zero or more characters that all keep its alignment.

        This is what HF's ``filter`` (empty output), ``map``, ``lowercase`` and the byte-level
        mapping amount to: the first output character replaces the input, the others are inserted
        after it and so share its alignment.
        """
        chars: list[str] = []
        align: list[Span] = []
        for ch, span in zip(self.text, self.align):
            out = rewrite(ch)
            if out:
                chars.append(out)
                align.extend([span] * len(out))
        self.text = "".join(chars)
        self.align = align
        self.sub = None

    def to_bytes_chars(self, byte_char: Callable[[int], str], original: str) -> None:
        """HF's ByteLevel step: each character becomes one character per UTF-8 byte.

        ``sub`` records each byte's index inside its character when that character is the
        original one, unchanged (``original`` is the whole input text).
        """
        text, start = self.text, self.start
        if text.isascii() and original[start : start + len(text)] == text and self.align == _identity(start, len(text)):
            self.text = "".join(map(byte_char, text.encode("ascii")))  # one byte per character, all exact
            self.sub = [0] * len(text)
            return
        chars: list[str] = []
        align: list[Span] = []
        sub: list[int | None] = []
        for ch, span in zip(self.text, self.align):
            data = ch.encode("utf-8", "surrogatepass")
            exact = span[1] - span[0] == 1 and original[span[0]] == ch
            for k, b in enumerate(data):
                chars.append(byte_char(b))
                align.append(span)
                sub.append(k if exact else None)
        self.text = "".join(chars)
        self.align = align
        self.sub = sub

    def prepend(self, prefix: str) -> None:
        """HF ``prepend``: the new characters share the first character's alignment."""
        if self.text and prefix:
            self.text = prefix + self.text
            self.align = [self.align[0]] * len(prefix) + self.align
            self.sub = None

    def replace(self, matches: Iterable[Span], content: str) -> None:
        """Replace each ``[start, end)`` match (sorted, disjoint) by ``content``."""
        chars: list[str] = []
        align: list[Span] = []
        last = 0
        for start, end in matches:
            chars.append(self.text[last:start])
            align.extend(self.align[last:start])
            if content:
                span = self.align[end - 1] if end >= 1 else (self.start, self.start)
                chars.append(content)
                align.extend([span] * len(content))
            last = end
        chars.append(self.text[last:])
        align.extend(self.align[last:])
        self.text = "".join(chars)
        self.align = align
        self.sub = None

    def strip(self, left: bool, right: bool, is_space: Callable[[str], bool]) -> None:
        """HF ``lrstrip``: drop leading and/or trailing whitespace, the rest keeps its alignment."""
        text = self.text
        lead = trail = 0
        if left:
            lead = next((i for i, c in enumerate(text) if not is_space(c)), len(text))
        if right:
            trail = next((i for i, c in enumerate(reversed(text)) if not is_space(c)), len(text))
        if lead or trail:
            keep_end = max(lead, len(text) - trail)
            self.text = text[lead:keep_end]
            self.align = self.align[lead:keep_end]
            self.sub = None


def _identity(start: int, n: int) -> list[Span]:
    return [(i, i + 1) for i in range(start, start + n)]
