"""Run our byte-level tokenizers on tiktoken's Rust core -- only where that is *proven* identical.

A rank table (``BpeTokenizer.from_ranks``) is tiktoken's own model, so it always qualifies.

A trained merge list applies the lowest-ranked *merge* among adjacent pairs; tiktoken merges the
pair whose *concatenated bytes* has the lowest rank, and first takes a whole piece that is itself a
token. With ranks = ids the two agree on every input when all of these hold (checked here):

0. the model is byte-level, holds all 256 bytes, uses its full merge list, and its
   pre-tokenizer is one of the built-in regexes (tiktoken drops text a regex does not match,
   while a custom pre-tokenizer keeps it; ``▁`` markers are not a regex at all);
1. no two merges produce the same token (else one id stands for two priorities);
2. every pair of vocab tokens whose concatenation is in the vocab is itself a merge -- so the
   set of mergeable adjacent pairs is the same under both rules in every state;
3. merge order and id order agree (merge ``i`` produces a smaller id than merge ``j > i``), so
   "lowest rank" picks the same pair; ties go leftmost in both;
4. every multi-byte token encodes to itself by the merge list, so tiktoken's whole-piece
   shortcut returns what the merges would;
5. no token is longer than :data:`LONG_TOKEN_BYTES`, and the proof of 2 and 4 fits a work budget
   linear in the vocabulary's bytes (it used to slice every cut of every token: quadratic, so a
   5,000,000-byte token hung ``encode``);
and special-token ids do not collide with vocabulary ids.

>>> from bpe_engine.catalog.openai import load_reference
>>> enc = to_tiktoken(load_reference("gpt2"))
>>> enc.encode("hello world")
[31373, 995]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import tiktoken

from .encode import merge_pair_ranks
from .merge_table import MergeTable
from .rank_table import RankTable

if TYPE_CHECKING:
    from .model import BpeTokenizer

LONG_TOKEN_BYTES = 1024
"""Tokens longer than this keep a model on the Python encoder: tiktoken's merge loop is quadratic in
a piece's length, and proving equivalence for them is not worth it (real vocabularies stay below
200 bytes; a 5 MB corpus of one repeated character trains a 5,000,000-byte token)."""
WORK_PER_BYTE = 64
"""Budget of the equivalence proof, in bytes sliced per byte of vocabulary: linear by construction."""
WORK_BASE = 1_000_000
_TOO_COSTLY = "proving the merge list equivalent to tiktoken's rule would take too long for this vocabulary"

_WHOLE_TEXT = r"[\s\S]+"


def to_tiktoken(tokenizer: BpeTokenizer) -> tiktoken.Encoding | None:
    """A ``tiktoken.Encoding`` that encodes exactly like ``tokenizer``, or None (see
    :func:`why_not_tiktoken`). Cached on the tokenizer."""
    return tokenizer.tiktoken_status()[0]


def why_not_tiktoken(tokenizer: BpeTokenizer) -> str | None:
    """Why ``tokenizer`` cannot use tiktoken's core, or None when it can."""
    encoding, reason = tokenizer.tiktoken_status()
    return None if encoding is not None else reason


def build_tiktoken(tokenizer: BpeTokenizer) -> tuple[tiktoken.Encoding | None, str]:
    """Check the conditions of the module docstring and build the encoding: ``(encoding, "")``
    or ``(None, reason)``. Called once per tokenizer view by ``BpeTokenizer.tiktoken_status``."""
    reason = _pretokenizer_problem(tokenizer)
    if reason:
        return None, reason
    table = tokenizer._table
    if tokenizer.merge_count < tokenizer.n_merges:
        return None, f"only the first {tokenizer.merge_count} of {tokenizer.n_merges} merges are in use"
    if isinstance(table, RankTable):
        ranks = table.ranks
    elif isinstance(table, MergeTable):
        special_ids = frozenset(tokenizer.special_tokens.values())
        proof = merge_list_problem(table, special_ids)
        if proof:
            return None, proof
        ranks = mergeable_ranks(table, special_ids)
    else:  # pragma: no cover - only two table kinds exist
        return None, "unknown model kind"
    specials = tokenizer.special_tokens
    vocab_ids = set(ranks.values())
    clash = [s for s, i in specials.items() if i in vocab_ids]
    if clash:
        return None, f"special token {clash[0]!r} shares its id with a vocabulary token"
    pattern = tokenizer.pre_tokenizer.pattern or _WHOLE_TEXT
    encoding = tiktoken.Encoding(tokenizer.name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=specials)
    return encoding, ""


def _pretokenizer_problem(tokenizer: BpeTokenizer) -> str:
    pre = tokenizer.pre_tokenizer
    if not tokenizer.byte_level:
        return "character-level models have no byte ranks"
    if not pre.tiktoken_compatible:
        return f"pre-tokenizer {pre.name!r} is not one of the tiktoken-compatible regexes (gpt2, cl100k, o200k, tekken)"
    return ""


def merge_list_problem(table: MergeTable, special_ids: frozenset[int] = frozenset()) -> str:
    """Conditions 0-4 of the module docstring for a trained byte-level merge list: "" if all hold,
    else the first one that fails, named with an example."""
    if None in table.byte_id:
        missing = table.byte_id.index(None)
        return f"byte 0x{missing:02x} is not in the vocabulary (trained on the bytes seen only)"
    seen: dict[int, int] = {}
    for rank, new in enumerate(table.new_id):
        if new in seen:
            left, right = table.merge_list[rank]
            return f"merges {seen[new]} and {rank} both produce {left + right!r} (condition 1)"
        if new in special_ids or new == table.unk_id:
            return f"merge {rank} produces the special/unk token {table.id_str[new]!r}"
        seen[new] = rank
    for rank in range(1, len(table.new_id)):
        if table.new_id[rank] < table.new_id[rank - 1]:
            return f"merge {rank} produces a smaller id than merge {rank - 1} (condition 3)"
    by_bytes = mergeable_ranks(table, special_ids)
    skip = special_ids | {table.unk_id}
    if len(by_bytes) != sum(1 for i, d in enumerate(table.id_bytes) if d is not None and i not in skip):
        return "two vocabulary strings stand for the same bytes"
    longest = max(map(len, by_bytes), default=0)
    if longest > LONG_TOKEN_BYTES:
        return (
            f"a token of {longest:,} bytes is longer than {LONG_TOKEN_BYTES:,}: tiktoken's merge loop is quadratic "
            "in the piece length, so the Python encoder (n log n) is used"
        )
    return _pairs_problem(table, by_bytes)


def _pairs_problem(table: MergeTable, by_bytes: dict[bytes, int]) -> str:
    """Conditions 2 and 4, in work linear in the vocabulary's bytes.

    Condition 2 only needs the cuts whose left part is a token, so only cuts at the lengths tokens
    have are tried (a token of 4,096 bytes in a vocabulary whose tokens have 40 lengths costs 40
    slices, not 4,095). The work is counted against a budget proportional to the vocabulary's total
    bytes; a vocabulary that would exceed it (crafted to be slow) is refused, never hangs.
    """
    stride, pair_rank, name = table.stride, table.pair_rank, table.id_str
    lengths = sorted({len(data) for data in by_bytes})
    budget = WORK_PER_BYTE * sum(map(len, by_bytes)) + WORK_BASE
    for data, token_id in by_bytes.items():
        size = len(data)
        for cut in lengths:
            if cut >= size:
                break
            budget -= size
            if budget < 0:
                return _TOO_COSTLY
            left = by_bytes.get(data[:cut])
            if left is None:
                continue
            right = by_bytes.get(data[cut:])
            if right is not None and left * stride + right not in pair_rank:
                return f"{name[left]!r} + {name[right]!r} spell {name[token_id]!r} but are not a merge (condition 2)"
    byte_id = cast("list[int]", table.byte_id)  # merge_list_problem returned early if a byte is missing
    for data, token_id in by_bytes.items():
        if len(data) > 1:
            budget -= 8 * len(data)  # the merge loop is n log n; a generous per-byte charge
            if budget < 0:
                return _TOO_COSTLY
            ids = [byte_id[b] for b in data]
            if merge_pair_ranks(ids, pair_rank, table.new_id, stride) != [token_id]:
                return f"token {name[token_id]!r} does not encode to itself (condition 4)"
    return ""


def mergeable_ranks(table: MergeTable, special_ids: frozenset[int]) -> dict[bytes, int]:
    """bytes -> id for every vocabulary token that ordinary text can produce (not specials/unk)."""
    skip = special_ids | ({table.unk_id} if table.unk_id is not None else set())
    return {data: i for i, data in enumerate(table.id_bytes) if data is not None and i not in skip}
