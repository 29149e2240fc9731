"""Where normalized text can be cut into words that encode independently.

SentencePiece encodes the whole normalized string at once, but BPE merges and Unigram lattice
nodes are pieces, so the result cannot change across a boundary that no piece spans. Which
boundaries are safe depends on the vocabulary: most models never put ``▁`` after the first
character of a piece (cut before every ``▁``), Llama-style models have runs like ``▁▁▁▁`` (cut
only where ``▁`` follows another character), suffix models put ``▁`` last. :func:`word_splitter`
picks the finest rule the pieces allow -- or none, and then the text is one word. Characters that
occur in no piece of two or more characters (often punctuation, and every unknown character) are
words on their own as well: nothing can join them to a neighbour.

>>> word_splitter(["▁a", "ab", "b"], "▁")("▁ab▁b")
['▁ab', '▁b']
>>> word_splitter(["▁▁", "▁a", "ab"], "▁")("▁▁a▁▁")
['▁▁a', '▁▁']
>>> word_splitter(["▁a", "ab", ","], "▁")("▁ab,▁a")
['▁ab', ',', '▁a']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable


def word_splitter(pieces: Iterable[str], space: str) -> Callable[[str], list[str]]:
    """A function cutting normalized text into words no piece in ``pieces`` crosses."""
    pieces = list(pieces)
    s = re.escape(space)
    starts_inside = follows_other = ends_inside = precedes_other = False
    for piece in pieces:
        if space not in piece:
            continue
        at = piece.find(space, 1)
        while at > 0:
            starts_inside = True
            follows_other = follows_other or piece[at - 1] != space
            at = piece.find(space, at + 1)
        for i in range(len(piece) - 1):
            if piece[i] == space:
                ends_inside = True
                precedes_other = precedes_other or piece[i + 1] != space
    joined = _joinable(pieces, space)  # characters some piece joins to another (a class, without the space)
    candidates = (
        (starts_inside, f"{s}{joined}*|{joined}+|."),  # cut before every space
        (follows_other, f"{s}*{joined}+|{s}+|."),  # cut before a space that follows another character
        (ends_inside, f"{joined}*{s}|{joined}+|."),  # cut after every space
        (precedes_other, f"{joined}+{s}*|{s}+|."),  # cut after a space run
    )
    for unsafe, pattern in candidates:
        if not unsafe:
            return re.compile(pattern, re.DOTALL).findall
    return _whole


def _joinable(pieces: Iterable[str], space: str) -> str:
    """A character class of the characters (other than ``space``) that occur in a piece of two or
    more characters. It also admits every astral character: joining more than needed is always
    safe, and ``re`` tests a class of BMP characters with one bitmap lookup but a class holding
    astral characters as a slow list of ranges."""
    chars = {c for piece in pieces if len(piece) > 1 for c in piece if c != space and ord(c) < 0x10000}
    return "[" + "".join(re.escape(c) for c in sorted(chars)) + "\U00010000-\U0010FFFF]"


def _whole(text: str) -> list[str]:
    return [text] if text else []
