"""A trained PickyBPE model, and how it encodes: its events replayed, earliest applicable first.

A word (a ``▁word`` piece of the ``whitespace`` pre-tokenizer) that is itself a token in the final
vocabulary is that token. Any other starts as its characters (one not in the alphabet is
``[UNK]``) and then, over and over, takes the earliest event that applies to it *after the last one
applied*: a merge of two neighbours, or the split of a token it holds -- ``pickybpe`` 1.3.1's
``PickyBPESegmenter._encode_word_by_events``, the rule the tests hold it to. A merge fuses every
occurrence left to right, a split rewrites every occurrence.

One difference by design: 1.3.1 cuts text with ``str.split()``, so two spaces read as one; here the
extra spaces are ``▁`` tokens of their own, and ``decode`` gives the text back.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ...errors import ConfigError
from ...core.text_index import index_of
from ...pretokenizers import SPACE_MARKER, WHITESPACE
from ...special_text import special_segments
from ...types import DEFAULT_SPECIAL_MODE, Capabilities, Encoding, SpecialMode
from .config import PICKY_SPECIALS
from .setup import UNK_ID

_CACHE_LIMIT = 1 << 16


@dataclass(frozen=True)
class PickyModelState:
    """A finished run as plain data (picklable across processes): every token ever made, which are
    present, and the events -- merges ``(rank, left, right, new)`` and splits ``(rank, token, parts)``
    in internal ids."""

    name: str
    tokens: tuple[str, ...]
    present: tuple[bool, ...]
    merges: tuple[tuple[int, int, int, int], ...]
    splits: tuple[tuple[int, int, tuple[int, ...]], ...]

    @property
    def model(self) -> str:
        return "picky"


class PickyTokenizer:
    """The :class:`~bpe_engine.types.Tokenizer` of a PickyBPE run; ids are the final vocabulary's."""

    capabilities = Capabilities(family="bpe", explains="none", line_safe=WHITESPACE.line_safe, space_safe=WHITESPACE.safe_to_cut)
    unk_token = "[UNK]"
    notes: tuple[str, ...] = ()
    pre_tokenizer = WHITESPACE

    def __init__(self, state: PickyModelState) -> None:
        self.name = state.name
        self._tokens = state.tokens
        kept = [i for i, here in enumerate(state.present) if here]
        self._final = {internal: final for final, internal in enumerate(kept)}
        self._strings = tuple(state.tokens[i] for i in kept)
        self._present_ids = {state.tokens[i]: i for i in kept}
        self._chars = {t: i for i, t in enumerate(state.tokens) if len(t) == 1 and t not in PICKY_SPECIALS}
        merge_at: dict[str, list[int]] = {}
        self._made: dict[str, int] = {}
        for rank, a, b, new in state.merges:
            merge_at.setdefault(chr(a) + chr(b), []).append(rank)
            self._made[chr(a) + chr(b)] = new
        split_at: dict[int, list[int]] = {}
        self._parts: dict[int, str] = {}
        for rank, token, parts in state.splits:
            split_at.setdefault(token, []).append(rank)
            self._parts[rank] = "".join(map(chr, parts))
        self._merge_at, self._split_at = merge_at, split_at
        self._cache: dict[str, tuple[int, ...]] = {}

    # -- the vocabulary --------------------------------------------------------------------------
    @property
    def vocab_size(self) -> int:
        return len(self._strings)

    @property
    def unk_id(self) -> int:
        return self._final[UNK_ID]

    @property
    def special_tokens(self) -> dict[str, int]:
        return {t: self._final[i] for i, t in enumerate(PICKY_SPECIALS)}

    @property
    def vocab(self) -> dict[str, int]:
        return {t: i for i, t in enumerate(self._strings)}

    def token_str(self, token_id: int) -> str:
        if not 0 <= token_id < len(self._strings):
            raise ConfigError(f"id {token_id} is outside {self.name!r}'s vocabulary (0..{len(self._strings) - 1})")
        return self._strings[token_id]

    def token_bytes(self, token_id: int) -> bytes:
        return self.token_str(token_id).encode("utf-8")

    # -- encoding --------------------------------------------------------------------------------
    def encode(self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True) -> list[int]:
        return list(self.encode_detailed(text, special_mode=special_mode).ids)

    def encode_detailed(
        self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True
    ) -> Encoding:
        starts = index_of(text).char_byte_starts
        ids: list[int] = []
        tokens: list[str] = []
        spans: list[tuple[int, int]] = []
        special: list[bool] = []
        unknown: list[bool] = []
        offset = 0
        for segment, is_special in special_segments(text, self.special_tokens, special_mode, self.name):
            if is_special:
                ids.append(self.special_tokens[segment])
                tokens.append(segment)
                spans.append((starts[offset], starts[offset + len(segment)]))
                special.append(True)
                unknown.append(False)
            else:
                for piece, s, e in WHITESPACE.split_with_spans(segment):
                    at = offset + s - (len(piece) - (e - s))  # text position of the piece's first character
                    for internal in self.encode_word(piece):
                        token = self._tokens[internal]
                        width = 1 if internal == UNK_ID else len(token)  # [UNK] stands for one character
                        lo, hi = max(at, offset + s), at + width  # the prepended ▁ covers nothing
                        ids.append(self._final[internal])
                        tokens.append(segment[hi - offset - 1] if internal == UNK_ID else token)
                        spans.append((starts[lo], starts[max(lo, hi)]))
                        special.append(False)
                        unknown.append(internal == UNK_ID)
                        at = hi
            offset += len(segment)
        return Encoding(text, tuple(ids), tuple(tokens), tuple(spans), tuple(special), tuple(unknown))

    def encode_word(self, word: str) -> tuple[int, ...]:
        """Internal ids of one ``▁word`` piece (module docstring), cached."""
        found = self._cache.get(word)
        if found is None:
            found = self._replay(word)
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            self._cache[word] = found
        return found

    def _replay(self, word: str) -> tuple[int, ...]:
        whole = self._present_ids.get(word)
        if whole is not None:
            return (whole,)
        chars = self._chars
        w = "".join(chr(chars.get(ch, UNK_ID)) for ch in word)
        last = -1
        while True:
            merge_rank, pair = _next_event(((w[k : k + 2], self._merge_at.get(w[k : k + 2])) for k in range(len(w) - 1)), last)
            split_rank, held = _next_event(((ch, self._split_at.get(ord(ch))) for ch in set(w)), last)
            if pair is None and held is None:
                return tuple(map(ord, w))
            if held is None or (pair is not None and merge_rank < split_rank):
                assert pair is not None
                w, last = w.replace(pair, chr(self._made[pair])), merge_rank
            else:
                w, last = w.replace(held, self._parts[split_rank]), split_rank

    # -- decoding --------------------------------------------------------------------------------
    def decode(self, ids: Sequence[int], *, errors: Literal["replace", "strict"] = "replace") -> str:
        text = "".join(map(self.token_str, ids)).replace(SPACE_MARKER, " ")
        return text[1:] if text.startswith(" ") else text


def _next_event(candidates: object, last: int) -> tuple[int, str | None]:
    """The earliest event at or after ``last`` among ``(key, sorted ranks)`` candidates."""
    best, key = 1 << 62, None
    for k, ranks in candidates:  # type: ignore[attr-defined]
        if ranks:
            i = bisect_left(ranks, last)
            if i < len(ranks) and ranks[i] < best:
                best, key = ranks[i], k
    return best, key
