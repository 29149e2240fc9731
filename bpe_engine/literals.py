"""Finding many literal strings in a text at once: special tokens, Hugging Face added tokens,
SentencePiece user-defined symbols -- one automaton for every tokenizer family.

Every family matches its literals the same way: scanning left to right, at the leftmost position
where any literal starts, the longest one there wins, and the scan goes on after it
(leftmost-longest, non-overlapping). Hugging Face builds exactly this with the Rust
``aho-corasick`` crate (``MatchKind::LeftmostLongest``, ``added_vocabulary.rs``); SentencePiece
takes the longest user-defined symbol at each position with its prefix matcher; tiktoken's
special-token regex is an alternation of the tokens. We used to build one regex alternation of
the literals, longest first: the same matches, but compiling it costs seconds per thousand
literals (a ``tokenizer.json`` of 1,000,000 added tokens took 180 s and 3.5 GB to encode
"hello <t5> world"; llama4's 2,048 specials took 1.6 s per one-shot call).

:class:`Literals` is an Aho-Corasick automaton over the literals through ``ahocorasick_rs``, the
Python binding of that same Rust crate (wheels for every platform): building it is linear in
the literals' total length (~1.4 s for a million), matching linear in the text. Text that is not
strict UTF-8 -- lone surrogates from ``surrogateescape``, as byte-level corpora are decoded -- is
matched by the same automaton over ``surrogatepass`` bytes, with offsets mapped back to
characters.

>>> Literals(["<a>", "<ab>", "b"]).split("x<ab>b")
[('x', False), ('<ab>', True), ('b', True)]
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import ahocorasick_rs

Match = tuple[int, int, int]
"""(index of the literal in :attr:`Literals.literals`, start, end) -- character offsets."""


class Literals:
    """Leftmost-longest, non-overlapping matches of a set of literal strings (see the module
    docstring). Empty strings are dropped (they would match everywhere); duplicates count once."""

    def __init__(self, literals: Iterable[str]) -> None:
        unique = isinstance(literals, (dict, set, frozenset))  # keys of a mapping are distinct already
        self.literals: tuple[str, ...] = tuple(literals) if unique else tuple(dict.fromkeys(literals))
        if "" in self.literals:
            self.literals = tuple(s for s in self.literals if s)
        self._text: ahocorasick_rs.AhoCorasick | None = None
        self._bytes: ahocorasick_rs.BytesAhoCorasick | None = None
        self._every: ahocorasick_rs.BytesAhoCorasick | None = None  # every match, for :meth:`starts`
        if self.literals and _strict_utf8("".join(self.literals)):
            self._text = ahocorasick_rs.AhoCorasick(self.literals, matchkind=ahocorasick_rs.MatchKind.LeftmostLongest)

    def __bool__(self) -> bool:
        return bool(self.literals)

    def __len__(self) -> int:
        return len(self.literals)

    def find(self, text: str) -> list[Match]:
        """Every match in ``text``, left to right."""
        if not self.literals or not text:
            return []
        if self._text is not None:
            try:
                return self._text.find_matches_as_indexes(text)
            except UnicodeEncodeError:  # a lone surrogate in the text: match its bytes instead
                pass
        return self._find_bytes(text)

    def first(self, text: str) -> str | None:
        """The first literal found in ``text``, or None."""
        found = self.find(text)
        return self.literals[found[0][0]] if found else None

    def split(self, text: str) -> list[tuple[str, bool]]:
        """``text`` cut at the matches: ``[(segment, is_literal), ...]``, no empty segment."""
        out: list[tuple[str, bool]] = []
        pos = 0
        for index, start, end in self.find(text):
            if start > pos:
                out.append((text[pos:start], False))
            out.append((self.literals[index], True))
            pos = end
        if pos < len(text):
            out.append((text[pos:], False))
        return out

    def starts(self, text: str) -> dict[int, int]:
        """For each position of ``text`` where a literal starts, the index of the longest one
        starting there -- for a scan that moves by steps of its own (SentencePiece's normalizer
        steps over charsmap rules) and asks what starts where it lands."""
        if not self.literals or not text:
            return {}
        if self._every is None:
            self._every = ahocorasick_rs.BytesAhoCorasick(
                [s.encode("utf-8", "surrogatepass") for s in self.literals], matchkind=ahocorasick_rs.MatchKind.Standard
            )
        data = text.encode("utf-8", "surrogatepass")
        char_of = _char_offsets(text) if len(data) != len(text) else None
        longest: dict[int, int] = {}
        for index, start, _end in self._every.find_matches_as_indexes(data, overlapping=True):
            at = start if char_of is None else char_of[start]
            best = longest.get(at)
            if best is None or len(self.literals[index]) > len(self.literals[best]):
                longest[at] = index
        return longest

    def _find_bytes(self, text: str) -> list[Match]:
        if self._bytes is None:
            encoded = [s.encode("utf-8", "surrogatepass") for s in self.literals]
            self._bytes = ahocorasick_rs.BytesAhoCorasick(encoded, matchkind=ahocorasick_rs.MatchKind.LeftmostLongest)
        data = text.encode("utf-8", "surrogatepass")
        out: list[Match] = []
        byte_at = char_at = 0  # offsets mapped back by decoding only the stretches between matches
        for index, start, end in self._bytes.find_matches_as_indexes(data):
            char_start = char_at + len(data[byte_at:start].decode("utf-8", "surrogatepass"))
            char_end = char_start + len(self.literals[index])
            out.append((index, char_start, char_end))
            byte_at, char_at = end, char_end
        return out


@lru_cache(maxsize=64)
def literals_of(tokens: tuple[str, ...] | frozenset[str]) -> Literals:
    """The automaton of ``tokens``, built once per distinct set (callers pass a tuple or a
    frozenset they keep: hashing it is all a repeated call costs)."""
    return Literals(tokens)


def _char_offsets(text: str) -> dict[int, int]:
    """Byte offset (UTF-8, surrogates passed) of each character -> its character offset."""
    out: dict[int, int] = {}
    at = 0
    for i, ch in enumerate(text):
        out[at] = i
        at += len(ch.encode("utf-8", "surrogatepass"))
    return out


def _strict_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
