"""One token's span, lit in every row: what a pointer over the comparison picks out.

All rows of a :class:`~bpe_engine.compare.rows.Comparison` share one character axis, so a
token of any row is a character range ``[start, end)`` that every other row can be asked about:
which of *its* tokens touch those characters (tiktokenizer and the OpenAI tokenizer page light a
token up on hover; here the span lights up across all rows at once, and each row says how many
tokens it spends on it). Pure data over the alignments the comparison already holds.

>>> from bpe_engine.compare.baselines import CharacterTokenizer, WhitespaceWordTokenizer
>>> from bpe_engine.compare.rows import compare
>>> c = compare("ab cd", [CharacterTokenizer(), WhitespaceWordTokenizer()])
>>> pick = token_at(c, 1, 4)
>>> pick.token, pick.chars
(1, (3, 5))
>>> [cov.tokens for cov in covering(c, pick.chars)]
[(3, 4), (1,)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .rows import Comparison


@dataclass(frozen=True, slots=True)
class TokenPick:
    """Token ``token`` of row ``row``: its character span and its id / model form."""

    row: int
    token: int
    chars: tuple[int, int]
    id: int
    form: str
    special: bool
    unknown: bool


@dataclass(frozen=True, slots=True)
class Coverage:
    """The tokens of one row that touch a character span (``None`` tokens: the row failed)."""

    row: int
    tokens: tuple[int, ...] | None
    ids: tuple[int, ...]


def pick(comparison: Comparison, row: int, token: int) -> TokenPick | None:
    """Token ``token`` of ``row`` (None when the row failed or has no such token)."""
    if not 0 <= row < len(comparison.rows):
        return None
    r = comparison.rows[row]
    if r.alignment is None or r.encoding is None or not 0 <= token < len(r.encoding.ids):
        return None
    a, enc = r.alignment, r.encoding
    unknown = bool(enc.unknown[token]) if enc.unknown else False
    return TokenPick(row, token, (a.token_starts[token], a.token_ends[token]), enc.ids[token], enc.tokens[token], enc.special[token], unknown)


def token_at(comparison: Comparison, row: int, char: int) -> TokenPick | None:
    """The token of ``row`` that holds character ``char`` (the first one, where a character's
    bytes are split between tokens); None for text no token covers."""
    r = comparison.rows[row] if 0 <= row < len(comparison.rows) else None
    if r is None or r.alignment is None or not 0 <= char < r.alignment.n_chars:
        return None
    t = r.alignment.token_of_char[char]
    return pick(comparison, row, t) if t >= 0 else None


def covering(comparison: Comparison, chars: tuple[int, int]) -> list[Coverage]:
    """For every row, the tokens touching characters ``[start, end)`` (an empty span: the token
    that starts there, e.g. a BOS marker)."""
    start, end = chars
    out: list[Coverage] = []
    for i, r in enumerate(comparison.rows):
        if r.alignment is None or r.encoding is None:
            out.append(Coverage(i, None, ()))
            continue
        found = _touching(r.alignment.token_starts, r.alignment.token_ends, start, end)
        out.append(Coverage(i, found, tuple(r.encoding.ids[t] for t in found)))
    return out


def step(comparison: Comparison, row: int, token: int, delta: int) -> TokenPick | None:
    """The next (``delta`` = 1) or previous (-1) token of ``row`` with characters of its own,
    clamped at either end; skips tokens that cover nothing (added BOS/EOS)."""
    r = comparison.rows[row] if 0 <= row < len(comparison.rows) else None
    if r is None or r.alignment is None or not r.alignment.token_starts:
        return None
    starts, ends = r.alignment.token_starts, r.alignment.token_ends
    n = len(starts)
    t = max(0, min(token, n - 1))
    probe = t + delta
    while 0 <= probe < n:
        if ends[probe] > starts[probe] and (starts[probe], ends[probe]) != (starts[t], ends[t]):
            return pick(comparison, row, probe)
        probe += delta
    return pick(comparison, row, t)


def first_token(comparison: Comparison, row: int) -> TokenPick | None:
    """The first token of ``row`` that covers characters (skipping an added BOS)."""
    first = pick(comparison, row, 0)
    if first is None or first.chars[1] > first.chars[0]:
        return first
    return step(comparison, row, 0, 1)


def _touching(starts: Sequence[int], ends: Sequence[int], start: int, end: int) -> tuple[int, ...]:
    if end <= start:
        return tuple(t for t, (s, e) in enumerate(zip(starts, ends)) if s == start and e == start)
    return tuple(t for t, (s, e) in enumerate(zip(starts, ends)) if s < end and e > start)


__all__ = ["Coverage", "TokenPick", "covering", "first_token", "pick", "step", "token_at"]
