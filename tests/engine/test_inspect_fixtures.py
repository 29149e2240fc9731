"""A tiny byte-level BPE built from a hand-made rank table, wrapped as a Tokenizer, for the
inspector and comparison tests -- plus the tests that the wrapper itself is faithful.

The ranks make Korean split the way gpt2 does (한 = ``ED 95 | 9C``) and add one token that
crosses a character boundary (``9C EA``: the last byte of 한 with the first of 국), so the
partial-character logic meets every case without the 100k-entry reference tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import tiktoken

from bpe_engine.bpe.merge_tree import tree_from_ranks
from bpe_engine.core.byte_table import bytes_to_token_str
from bpe_engine.core.merge_node import MergeNode
from bpe_engine.errors import SpecialTokenError
from bpe_engine.pretokenizers import GPT2_PATTERN
from bpe_engine.types import Capabilities, Encoding, SpecialMode

EOT = "<|endoftext|>"
HAND_MERGES: tuple[bytes, ...] = (
    b"\xed\x95",  # first two bytes of 한
    b"\x9c\xea",  # last byte of 한 + first byte of 국 (crosses a character boundary)
    b"\xb5\xad",  # last two bytes of 국
    b"he",
    b"ll",
    b"hell",
    b"hello",
    b" w",
    b" wo",
    b"\xf0\x9f",  # first half of most emoji
)


def hand_ranks() -> dict[bytes, int]:
    ranks = {bytes([b]): b for b in range(256)}
    for merged in HAND_MERGES:
        ranks[merged] = len(ranks)
    return ranks


class TiktokenTokenizer:
    """The Tokenizer protocol over a ``tiktoken.Encoding`` (spans = cumulative token bytes)."""

    capabilities = Capabilities(family="bpe", byte_level=True, explains="merge-tree", merge_order="ranks")
    unk_token = unk_id = None
    notes = ()

    def __init__(self, encoding: tiktoken.Encoding) -> None:
        self.enc = encoding
        self.name = encoding.name
        self._ranks = encoding._mergeable_ranks  # noqa: SLF001 - the rank table merge_tree reads
        self.special_tokens = dict(encoding._special_tokens)  # noqa: SLF001
        self._specials = set(self.special_tokens.values())

    def merge_tree(self, token_id: int, *, special: bool = False) -> MergeNode | None:
        data = self.token_bytes(token_id)
        if special:
            return MergeNode(self.token_str(token_id), data, "special")
        return tree_from_ranks(data, self._ranks)

    @property
    def vocab_size(self) -> int:
        return self.enc.n_vocab

    def encode(self, text: str, *, special_mode: SpecialMode = "refuse") -> list[int]:
        if special_mode == "special":
            return self.enc.encode(text, allowed_special="all")
        if special_mode == "text":
            return self.enc.encode(text, allowed_special=set(), disallowed_special=())
        try:
            return self.enc.encode(text)
        except ValueError as exc:
            raise SpecialTokenError(f"{exc}; choose a special-token mode") from None

    def encode_detailed(self, text: str, *, special_mode: SpecialMode = "refuse") -> Encoding:
        ids = self.encode(text, special_mode=special_mode)
        pieces = self.enc.decode_tokens_bytes(ids)
        spans, pos = [], 0
        for p in pieces:
            spans.append((pos, pos + len(p)))
            pos += len(p)
        return Encoding(
            text,
            tuple(ids),
            tuple(bytes_to_token_str(p) for p in pieces),
            tuple(spans),
            tuple(i in self._specials for i in ids),
        )

    def decode(self, ids: Sequence[int], *, errors: Literal["replace", "strict"] = "replace") -> str:
        return self.enc.decode(list(ids), errors=errors)

    def token_str(self, token_id: int) -> str:
        return bytes_to_token_str(self.token_bytes(token_id))

    def token_bytes(self, token_id: int) -> bytes:
        try:
            return self.enc.decode_single_token_bytes(token_id)
        except KeyError:
            raise KeyError(token_id) from None


def hand_tokenizer() -> TiktokenTokenizer:
    ranks = hand_ranks()
    enc = tiktoken.Encoding("hand", pat_str=GPT2_PATTERN, mergeable_ranks=ranks, special_tokens={EOT: len(ranks)})
    return TiktokenTokenizer(enc)


# -- the wrapper is faithful ----------------------------------------------------------------------
def test_hand_tokenizer_splits_korean_like_gpt2() -> None:
    tok = hand_tokenizer()
    enc = tok.encode_detailed("한")
    assert [tok.token_bytes(i) for i in enc.ids] == [b"\xed\x95", b"\x9c"]
    assert enc.byte_spans == ((0, 2), (2, 3))


def test_hand_tokenizer_crosses_a_character_boundary() -> None:
    enc = hand_tokenizer().encode_detailed("한국")
    assert enc.byte_spans == ((0, 2), (2, 4), (4, 6))


def test_spans_are_the_token_bytes_laid_end_to_end() -> None:
    tok = hand_tokenizer()
    text = "hello world 한국 🙂"
    enc = tok.encode_detailed(text)
    raw = text.encode()
    assert [raw[s:e] for s, e in enc.byte_spans] == [tok.token_bytes(i) for i in enc.ids]
    assert enc.byte_spans[-1][1] == len(raw)


def test_special_modes_differ_in_count() -> None:
    tok = hand_tokenizer()
    assert len(tok.encode(EOT, special_mode="special")) == 1
    assert len(tok.encode(EOT, special_mode="text")) > 1
