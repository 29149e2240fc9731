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
and special-token ids do not collide with vocabulary ids.

>>> from bpe_engine.references import load_reference
>>> enc = to_tiktoken(load_reference("gpt2"))
>>> enc.encode("hello world")
[31373, 995]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import tiktoken

from .bpe_encode import MergeTable, RankTable, merge_pair_ranks
from .pretokenizers import BUILTIN

if TYPE_CHECKING:
    from .bpe_model import BpeTokenizer

# Pre-tokenizers whose regex splits identically in tiktoken (fancy-regex) and in ``regex``.
_TIKTOKEN_SAFE = {"gpt2", "cl100k", "o200k", "hf-gpt2", "none"}
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
    from .tekken import TEKKEN  # Mistral's regex: split-for-split equal in tiktoken too (tests/test_tekken.py)

    if not ((pre.name in _TIKTOKEN_SAFE and BUILTIN.get(pre.name) == pre) or pre == TEKKEN):
        names = ", ".join(sorted({*_TIKTOKEN_SAFE, TEKKEN.name}))
        return f"pre-tokenizer {pre.name!r} is not one of the tiktoken-compatible regexes ({names})"
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
    stride, pair_rank, name = table.stride, table.pair_rank, table.id_str
    for data, token_id in by_bytes.items():
        for cut in range(1, len(data)):
            left = by_bytes.get(data[:cut])
            right = by_bytes.get(data[cut:])
            if left is not None and right is not None and left * stride + right not in pair_rank:
                return f"{name[left]!r} + {name[right]!r} spell {name[token_id]!r} but are not a merge (condition 2)"
    for data, token_id in by_bytes.items():
        if len(data) > 1:
            ids = [table.byte_id[b] for b in data]
            if merge_pair_ranks(ids, pair_rank, table.new_id, stride) != [token_id]:  # type: ignore[arg-type]
                return f"token {name[token_id]!r} does not encode to itself (condition 4)"
    return ""


def mergeable_ranks(table: MergeTable, special_ids: frozenset[int]) -> dict[bytes, int]:
    """bytes -> id for every vocabulary token that ordinary text can produce (not specials/unk)."""
    skip = special_ids | ({table.unk_id} if table.unk_id is not None else set())
    return {data: i for i, data in enumerate(table.id_bytes) if data is not None and i not in skip}
