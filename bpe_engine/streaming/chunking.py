"""Cutting a text into chunks of at most N tokens, at token boundaries, in bounded memory.

Users of a model with a context window ask for this (tiktokenizer's most requested feature): cut
a document into pieces that each fit, without cutting a token, and such that the pieces laid end
to end are the document again, byte for byte.

What is promised, for every chunk:

1. Its text encoded alone (``encode``, with whatever the tokenizer adds to every text, as
   ``encode --count`` counts) has at most N tokens -- checked by encoding it alone wherever it is
   not proven (below). ``fits`` is False only when no cut at a token boundary can give that: a
   single token of the text that alone encodes to more than N (SentencePiece's ``world`` inside a
   sentence is ``▁world`` at a chunk's start: two tokens where N is 1).
2. The chunks concatenated are the input exactly; each ends between two characters.
3. ``exact``: its ids alone are the whole text's ids over its span. Always so when both its ends
   are cut points of the tokenizer (:func:`~bpe_engine.streaming.encode_stream.encode_cut_rule`: before a
   space after a letter or digit, at a line start -- where no token crosses, so the parts encode
   to the whole); the chunker cuts at the last such point within N tokens, and only where there is
   none (a long word, text without spaces, a tokenizer that declares no cut point) at a token
   boundary, preferring one beside a space (a word boundary). There a chunk is encoded alone: if it
   has more than N tokens its end moves back, and ``exact`` says whether its ids came out the same.

The input arrives in blocks that end at cut points (:func:`~bpe_engine.streaming.encode_stream.text_blocks`),
each encoded once with its details; only the chunk being made is held (at most N tokens of text,
bounded by the rule's ``max_span``), so memory does not grow with the input.

>>> import io
>>> from bpe_engine.catalog.openai import load_reference
>>> from bpe_engine.streaming.encode_stream import encode_cut_rule, text_blocks
>>> tok = load_reference("cl100k_base")
>>> rule = encode_cut_rule(tok)
>>> [(c.text, c.tokens) for c in chunk_text(tok, text_blocks("t", io.BytesIO(b"one two three four"), rule), rule, 2)]
[('one two', 2), (' three four', 2)]
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator
from itertools import accumulate
from operator import le
from typing import Any, NamedTuple

from ..corpus.blocks import CutRule
from ..errors import ConfigError
from ..types import SpecialMode
from .encode_stream import TextBlock, encode_ids

_WINDOW = 64
"""Bytes looked back from a chunk's furthest end for a cut point, at first (then 4x, 16x, ...):
each cut point in the window costs a search, and one is nearly always within a word or two."""
_SPACE_BYTES = frozenset(b" \t\n\r\x0b\x0c")


class Chunk(NamedTuple):
    """One piece of the input: ``[start, end)`` in its UTF-8 bytes (see the module docstring)."""

    text: str
    start: int
    end: int
    tokens: int
    exact: bool
    fits: bool


class _Pending:
    """The chunk being made and the text after it read so far: bytes from ``base``, and per token
    its id, its start and whether a chunk may end just before it (``valid``), from ``lo`` on."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.base = 0
        self.ids: list[int] = []
        self.starts: list[int] = []
        self.valid: list[bool] = []
        self.lo = 0
        self.block_ends: list[int] = []  # cut points the blocks ended at (the rule cannot see them at the data's end)
        self.last_end = 0  # where the last token read ends

    @property
    def end(self) -> int:
        return self.base + len(self.data)

    @property
    def count(self) -> int:
        return len(self.ids) - self.lo

    def add(self, block: TextBlock, ids: tuple[int, ...], spans: tuple[tuple[int, int], ...]) -> None:
        """The block's tokens, in bulk (a loop over 500,000 tokens took 1 s of 4): a chunk may end
        before a token that starts after every earlier token's end, between two characters."""
        data, offset = block.data, block.offset
        starts = [s for s, _ in spans]
        ends = list(accumulate((e for _, e in spans), max, initial=self.last_end - offset))  # the furthest end so far
        valid = list(map(le, ends, starts))
        if not data.isascii():
            valid = [v and (s >= len(data) or not 0x80 <= data[s] < 0xC0) for v, s in zip(valid, starts)]
        self.ids += ids
        self.starts += [s + offset for s in starts]
        self.valid += valid
        self.last_end = ends[-1] + offset
        self.data += data
        if not block.at_end:
            self.block_ends.append(self.end)

    def drop(self, cut: int, k: int) -> None:
        """Forget the text before byte ``cut`` and the tokens before index ``k`` (a chunk made)."""
        del self.data[: cut - self.base]
        self.base, self.lo = cut, k
        self.block_ends = [c for c in self.block_ends if c > cut]
        if self.lo > 4096 and self.lo * 2 > len(self.ids):
            del self.ids[: self.lo], self.starts[: self.lo], self.valid[: self.lo]
            self.lo = 0


class _Chunker:
    def __init__(self, tokenizer: Any, rule: CutRule, max_tokens: int, special_mode: SpecialMode) -> None:
        if max_tokens < 1:
            raise ConfigError(f"a chunk needs room for at least 1 token (got {max_tokens})")
        self.tokenizer, self.rule, self.n, self.mode = tokenizer, rule, max_tokens, special_mode
        self.p = _Pending()
        self.safe_start = True

    def feed(self, block: TextBlock) -> Iterator[Chunk]:
        encoding = self.tokenizer.encode_detailed(block.text, special_mode=self.mode)
        self.p.add(block, encoding.ids, encoding.byte_spans)
        while self.p.count > self.n or (block.at_end and self.p.data):
            yield self._make(min(self.p.count, self.n), at_end=block.at_end)
        if self.rule.max_span and len(self.p.data) > self.rule.max_span + len(block.data):
            raise ConfigError(
                f"a chunk of at most {self.n:,} tokens holds more than {self.rule.max_span:,} bytes of text here "
                f"(from byte offset {self.p.base:,}); use a smaller --max-tokens or a larger --memory-limit"
            )

    def _make(self, limit: int, *, at_end: bool = False) -> Chunk:
        """The next chunk: its furthest end within ``limit`` tokens, checked where not proven."""
        p = self.p
        while True:
            cut, k, safe_end = self._end_within(limit, at_end)
            text = bytes(p.data[: cut - p.base]).decode("utf-8")
            tokens, exact = k - p.lo, True
            if not (self.safe_start and safe_end):
                alone = encode_ids(self.tokenizer, text, self.mode)[0]
                tokens, exact = len(alone), alone == p.ids[p.lo : k]
                if tokens > self.n and 1 < k - p.lo <= limit:  # move the end back by the excess, and check again
                    limit, at_end = max(1, k - p.lo - (tokens - self.n)), False
                    continue
            chunk = Chunk(text, p.base, cut, tokens, exact, tokens <= self.n)
            p.drop(cut, k)
            self.safe_start = safe_end
            return chunk

    def _end_within(self, limit: int, at_end: bool) -> tuple[int, int, bool]:
        """``(cut, k, safe)``: the furthest end with at most ``limit`` tokens before it -- the data's
        end at the input's end, else a cut point, else a token boundary -- and the first token after it."""
        p = self.p
        if at_end and limit >= p.count:
            return p.end, len(p.ids), True
        furthest = p.starts[p.lo + limit]
        cut = max(self._last_cut(p.base, furthest), max((c for c in p.block_ends if c <= furthest), default=-1))
        if cut > p.base:
            return cut, bisect_left(p.starts, cut, p.lo), True
        return self._boundary(limit)

    def _last_cut(self, after: int, upto: int) -> int:
        """The last cut point ``c`` of the rule with ``after < c <= upto`` (absolute), or -1."""
        if not self.rule.can_cut:
            return -1
        data, base, find = self.p.data, self.p.base, self.rule.find
        hi = upto - base
        window = _WINDOW
        while True:
            start = max(after + 1, upto - window)
            cut = find(data, start - base, hi + 1)  # + 1: a space cut at hi itself is found too
            if cut != -1 and cut <= hi:
                nxt = find(data, cut + 1, hi + 1)
                while nxt != -1 and nxt <= hi:
                    cut, nxt = nxt, find(data, nxt + 1, hi + 1)
                return cut + base
            if start == after + 1:
                return -1
            window *= 4

    def _boundary(self, limit: int) -> tuple[int, int, bool]:
        """The last token boundary within ``limit`` tokens beside a space, else the last at all;
        past the first token if no boundary comes sooner (one token that alone does not fit)."""
        p = self.p
        data, base = p.data, p.base
        last = -1
        for k in range(p.lo + min(limit, p.count - 1), p.lo, -1):
            pos = p.starts[k]
            if not p.valid[k] or pos <= base:
                continue
            if data[pos - base - 1] in _SPACE_BYTES or (pos < p.end and data[pos - base] in _SPACE_BYTES):
                return pos, k, False
            if last == -1:
                last = k
        if last == -1:  # no boundary within the limit: the first one after it
            last = next((k for k in range(p.lo + 1, len(p.ids)) if p.valid[k] and p.starts[k] > base), len(p.ids))
            if last == len(p.ids):  # none at all: the data's end, a block's end or the input's
                return p.end, last, True
        return p.starts[last], last, False


def chunk_text(tokenizer: Any, blocks: Iterable[TextBlock], rule: CutRule, max_tokens: int, special_mode: SpecialMode = "text") -> Iterator[Chunk]:
    """The chunks of the text ``blocks`` hold (cut by ``rule``, the tokenizer's
    :func:`~bpe_engine.streaming.encode_stream.encode_cut_rule`), in order (see the module docstring)."""
    chunker = _Chunker(tokenizer, rule, max_tokens, special_mode)
    for block in blocks:
        yield from chunker.feed(block)
