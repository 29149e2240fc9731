"""A faster splitter for ASCII text: each built-in pattern's twin for the standard ``re`` module.

Pre-tokenizing is most of counting, and most corpora are mostly ASCII. On ASCII text the
Unicode classes of the built-in patterns have ASCII equivalents (``\\p{L}`` is ``A-Za-z``,
``\\p{N}`` is ``0-9``, ``\\p{M}``/``\\p{Lo}``/... are empty, and ``\\s`` under ``re.ASCII`` is the
same six characters the ``regex`` module's ``\\s`` matches below 128), and the standard ``re``
(possessive quantifiers since Python 3.11) runs such a pattern about three times faster. So
:func:`splitter` gives a function that sends ASCII segments to the twin and the rest to the real
pattern: the same pieces (a property test checks every built-in pattern), sooner.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

from ..core.block_text import Text
from ..pretokenizers import PreTokenizer, compile_pattern

SEGMENT_CHARS = 1 << 14
"""Characters per part in :func:`text_segments` (the counter decodes blocks in parts this size)."""

# What each Unicode property holds below 128, inside a character class.
_ASCII_MEMBERS = {"L": "A-Za-z", "N": "0-9", "Lu": "A-Z", "Ll": "a-z", "Lt": "", "Lm": "", "Lo": "", "M": ""}


def ascii_twin(pattern: str) -> str | None:
    """``pattern`` with its ``\\p{..}`` classes spelled for ASCII text, or None if it has others.

    >>> ascii_twin(r" ?\\p{L}++|[^\\s\\p{L}\\p{N}]+")
    ' ?[A-Za-z]++|[^\\\\sA-Za-z0-9]+'
    """
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and pattern.startswith(("\\p{", "\\P{"), i):
            end = pattern.index("}", i)
            members = _ASCII_MEMBERS.get(pattern[i + 3 : end])
            if members is None or ch == "\\" and pattern[i + 1] == "P":
                return None
            out.append(members if in_class else f"[{members}]")
            if not in_class and not members:
                return None  # a class that matches nothing: not worth spelling
            i = end + 1
            continue
        if ch == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
        elif ch == "]" and in_class and out[-1] not in ("[", "[^"):
            in_class = False
        out.append(ch)
        i += 1
    return "".join(out)


def splitter(pre_tokenizer: PreTokenizer) -> Callable[[str], list[str]]:
    """``pre_tokenizer.splitter()``, with the ``re`` twin for ASCII segments where there is one:
    a trusted pattern whose pieces are its matches (the built-ins)."""
    pre = pre_tokenizer
    if pre.trusted and pre.pattern is not None and not pre.keeps_unmatched and pre.space_marker is None:
        return _twin_splitter(pre.pattern)
    return pre.splitter()


@lru_cache(maxsize=32)
def _twin_splitter(pattern: str) -> Callable[[str], list[str]]:
    full = compile_pattern(pattern).findall
    twin = ascii_twin(pattern)
    if twin is None:
        return full
    try:
        fast = re.compile(twin, re.ASCII).findall
    except re.error:
        return full

    def split(text: str) -> list[str]:
        return fast(text) if text.isascii() else full(text)

    return split


def text_segments(text: Text, pre_tokenizer: PreTokenizer, size: int = SEGMENT_CHARS) -> Iterator[str]:
    """``text`` in parts of about ``size`` characters cut where no piece crosses (the counter's
    rule, :mod:`.blocks`: before a space that follows a letter or digit, for pre-tokenizers that
    declare it safe), so each ASCII part takes the ``re`` twin even when the text as a whole is
    not ASCII (a corpus with one accent anywhere went all through the slower ``regex`` pattern).

    A :class:`~.block_text.BlockText` is cut block by block (never spelled out whole), except for
    a pre-tokenizer that cannot be cut: then it is one part, as a ``str`` is."""
    if isinstance(text, str):
        yield from _str_segments(text, pre_tokenizer.safe_to_cut, size)
    elif not pre_tokenizer.safe_to_cut:
        yield str(text)
    else:
        yield from _block_segments(text.blocks, size)


def _str_segments(text: str, cuttable: bool, size: int) -> Iterator[str]:
    start = 0
    if cuttable:
        while len(text) - start > size:
            cut = text.find(" ", start + size)
            while cut != -1 and not text[cut - 1].isalnum():
                cut = text.find(" ", cut + 1)
            if cut == -1:
                break
            yield text[start:cut]
            start = cut
    yield text[start:]


def _block_segments(blocks: Iterable[str], size: int) -> Iterator[str]:
    """Segments of the text of ``blocks``: a part with no cut point waits for the next block."""
    carry: list[str] = []  # the text since the last cut, not yielded yet
    for block in blocks:
        before = carry[-1][-1] if carry else ""  # the character before block[0]
        cut = block.find(" ")
        while cut != -1 and not (block[cut - 1] if cut else before).isalnum():
            cut = block.find(" ", cut + 1)
        if cut == -1:
            carry.append(block)
            continue
        head = "".join(carry) + block[:cut]
        if head:
            yield head
        *done, last = _str_segments(block[cut:], True, size)
        yield from done
        carry = [last]
    tail = "".join(carry)
    if tail:
        yield tail


def split_in_segments(text: Text, pre_tokenizer: PreTokenizer) -> list[str]:
    """``pre_tokenizer.split(text)``, sooner and in small regex calls (:func:`text_segments`)."""
    split = splitter(pre_tokenizer)
    return [piece for segment in text_segments(text, pre_tokenizer) for piece in split(segment)]
