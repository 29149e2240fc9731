"""Force strings to be single tokens: add the merge chain that builds each one.

A string the base's pre-tokenizer cuts into several pieces can never be one token (no merge crosses
a piece), so it is reported, not forced. For the others the model's own encoding of the string is
joined left to right -- ``(t0, t1)``, ``(t0t1, t2)``, ... -- as new merges after every existing
one: the existing merges still run first, then the chain fuses what they left. Each string is
encoded again with the result, and a string that still is not one token is reported too (a rank
table's tiktoken rule can join the pieces another way).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bpe.model import BpeTokenizer
from ..core.normalizer import normalize
from ..display import visible_text
from ..errors import ConfigError
from .base import BpeBase
from .extend import extended_tokenizer


@dataclass(frozen=True)
class Forced:
    """What forcing did: merges and tokens added, strings that are one token now, and why others are not."""

    merges: list[tuple[str, str]]
    tokens: dict[str, int]
    forced: list[str]
    already: list[str]
    refused: dict[str, str]


def check_forced(strings: list[str], max_token_length: int | None, byte_level: bool) -> None:
    """Bad input, before any work: an empty string, or one longer than the longest token allowed."""
    for s in strings:
        if not s:
            raise ConfigError("a --force string cannot be empty", field="force")
        size = len(s.encode("utf-8")) if byte_level else len(s)
        if max_token_length is not None and size >= max_token_length:
            unit = "bytes" if byte_level else "characters"
            raise ConfigError(
                f"--force {visible_text(s)!r} is {size} {unit}, but no token may reach --max-token-length "
                f"{max_token_length}; raise --max-token-length (0: no limit) or force a shorter string",
                field="force",
            )


def force_strings(
    base: BpeBase, learned: list[tuple[str, str]], learned_tokens: dict[str, int], strings: list[str], name: str
) -> tuple[BpeTokenizer, Forced]:
    """The base + ``learned`` merges, then each string's chain; the tokenizer and what happened."""
    merges = list(learned)
    tokens = dict(learned_tokens)
    current = extended_tokenizer(base, merges, tokens, name)
    next_id = max([base.next_id - 1, *tokens.values()]) + 1
    forced: list[str] = []
    already: list[str] = []
    refused: dict[str, str] = {}
    pre = base.pre_tokenizer
    for s in dict.fromkeys(strings):
        text = normalize(s, base.normalizer) if base.normalizer else s
        pieces = pre.split(text)
        if len(pieces) != 1:
            refused[s] = f"the {pre.name} pre-tokenizer cuts it into {len(pieces)} pieces, and no merge crosses a piece"
            continue
        ids = current.encode_ordinary(text)
        if len(ids) == 1:
            already.append(s)
            continue
        if not base.byte_level and pre.end_of_word_suffix:
            refused[s] = "forcing is for byte-level and regex pre-tokenizers (a </w> word end is added to the last symbol)"
            continue
        parts = [current.token_str(i) for i in ids]
        left = parts[0]
        for right in parts[1:]:
            merged = left + right
            merges.append((left, right))
            if merged not in current.vocab and merged not in tokens:
                tokens[merged] = next_id
                next_id += 1
            left = merged
        current = extended_tokenizer(base, merges, tokens, name)
        if current.encode_ordinary(text) == [current.id_of(left)]:
            forced.append(s)
        else:
            refused[s] = "the model's encoding rule joins its pieces another way (a tiktoken rank table merges by bytes)"
    return current, Forced(merges[len(learned):], {t: i for t, i in tokens.items() if t not in learned_tokens}, forced, already, refused)
