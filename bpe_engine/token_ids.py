"""The rules every token id obeys, checked once at load and once at decode, by every format.

A token id indexes tables (``id -> bytes``), so a bad id is not a cosmetic problem:

- a **negative** id reaches Python's negative indexing and quietly names the *last* token
  (``decode([-1])`` used to return a real token), or lets a special token shadow an ordinary one;
- a **huge** id (``10**12`` in a vocab.json) makes the table as long as the id: a MemoryError, or
  minutes and gigabytes for ``10**8``;
- a **duplicate** id makes two tokens decode the same;
- a **gap** where the format forbids one (``.tiktoken`` ranks, ``vocab.txt`` lines) means the file
  was cut or edited by hand.

So ids must be ``0 <= id <= MAX_TOKEN_ID``. The bound is far above every real vocabulary (the
largest in use hold about 260,000 tokens; o200k's largest id is 200,018) and low enough that a table
of that length is built in milliseconds. Loaders call :func:`check_file_id` as they read and
:func:`check_unique` / :func:`check_contiguous` on the result; each raises a
:class:`~bpe_engine.errors.TokenizerFileError` naming the file, the token and the id in one line.
Tokenizers call :func:`check_decode_ids` before decoding (a :class:`~bpe_engine.errors.ConfigError`).

>>> id_problem(5), id_problem(-4), id_problem(True), id_problem(10**12)
(None, 'is negative', 'is not an integer', 'is above the largest id allowed (16,777,215)')
>>> check_contiguous("x.tiktoken", [0, 1, 3], what="rank")
Traceback (most recent call last):
...
bpe_engine.errors.TokenizerFileError: x.tiktoken: rank 2 is missing (ranks 0..3 hold 3 tokens); a rank file lists every rank from 0 without gaps
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import cast

from .errors import ConfigError, TokenizerFileError

MAX_TOKEN_ID = (1 << 24) - 1
"""The largest id any loader accepts: 16,777,215 (64 times the largest real vocabulary)."""


def id_problem(value: object) -> str | None:
    """Why ``value`` is not a valid token id, as the end of a sentence; None when it is one."""
    if isinstance(value, bool) or not isinstance(value, int):
        return "is not an integer"
    if value < 0:
        return "is negative"
    if value > MAX_TOKEN_ID:
        return f"is above the largest id allowed ({MAX_TOKEN_ID:,})"
    return None


def check_file_id(
    path: str | Path, value: object, *, what: str, line: int | None = None, kind: str = "id"
) -> int:
    """``value`` as an id of ``what`` (``"token 'Ġthe'"``) read from ``path``; else one clear error.

    >>> check_file_id("vocab.json", -4, what="token 'a'")
    Traceback (most recent call last):
    ...
    bpe_engine.errors.TokenizerFileError: vocab.json: token 'a' has id -4, which is negative; ids run from 0 up
    """
    problem = id_problem(value)
    if problem is None:
        return cast(int, value)  # id_problem found nothing wrong: an int in range
    shown = _short_repr(value)
    fix = "ids run from 0 up" if problem == "is negative" else (
        f"ids are integers from 0 to {MAX_TOKEN_ID:,}" if problem == "is not an integer" else "is the file damaged?"
    )
    raise TokenizerFileError(path, f"{what} has {kind} {shown}, which {problem}; {fix}", line=line)


def check_unique(path: str | Path, pairs: Iterable[tuple[str, int]], *, what: str = "token", kind: str = "id") -> None:
    """No two names share one id: ``pairs`` are ``(name, id)``; names are shown with ``repr``."""
    seen: dict[int, str] = {}
    for name, value in pairs:
        other = seen.setdefault(value, name)
        if other != name:
            raise TokenizerFileError(
                path, f"{kind} {value} is used by {what} {other!r} and by {what} {name!r}; every {what} needs its own {kind}"
            )


def check_contiguous(
    path: str | Path, ids: Iterable[int], *, what: str = "id", rule: str = "a rank file lists every rank from 0 without gaps"
) -> None:
    """The ids run ``0..n-1`` with none missing (formats whose ids are positions or priorities);
    ``rule`` ends the message with what the format requires."""
    present = set(ids)
    if not present:
        return
    top = max(present)
    if top + 1 == len(present):
        return
    missing = next(i for i in range(top + 1) if i not in present)
    raise TokenizerFileError(
        path,
        f"{what} {missing} is missing ({what}s 0..{top} hold {len(present)} tokens); {rule}",
    )


def check_decode_ids(ids: Sequence[object], size: int, name: str) -> None:
    """Every id is an int in ``0..size-1`` (``size`` = the tokenizer's table length); else a
    :class:`ConfigError` naming the first bad id and why (an unknown piece has no id to decode).

    Two C-level passes (``min``/``max``) answer the usual all-good case; only a failure walks the ids.
    """
    # The fast path compares the ids as ints; anything that is not one either fails the type test
    # or raises TypeError in min/max, and the walk below names it.
    as_ints = cast("Sequence[int]", ids)
    try:
        if not as_ints or (0 <= min(as_ints) and max(as_ints) < size and set(map(type, as_ints)) <= {int}):
            return
    except TypeError:
        pass
    for position, value in enumerate(ids):
        where = f"token id {_short_repr(value)} (position {position})"
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where} is not an integer")
        if value < 0:
            why = "marks an unknown piece, which has no token" if value == -1 else "is negative"
            raise ConfigError(f"{where} {why}; ids of tokenizer {name!r} run 0..{size - 1}")
        if value >= size:
            raise ConfigError(f"{where} is not in tokenizer {name!r} (ids run 0..{size - 1})")


def _short_repr(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


__all__ = ["MAX_TOKEN_ID", "check_contiguous", "check_decode_ids", "check_file_id", "check_unique", "id_problem"]
