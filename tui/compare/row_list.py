"""The rules of Compare's row list: which row is the baseline, which is current, after a change.

The pane keeps the list (``rows``, ``baseline``, ``current_row``: the picker, ``x``, ``J``/``K``
and ``B`` change them); these pure functions say what follows from a change, so the rule that the
baseline and the current row follow *their tokenizers*, not their places, is written once.
"""

from __future__ import annotations

from collections.abc import Sequence

DEFAULT_BASELINE = "o200k_base"
"""The baseline while it is a row: the reference most people read a cost against."""


def baseline_among(rows: Sequence[str], baseline: str | None) -> str | None:
    """``baseline`` while it is still a row; else :data:`DEFAULT_BASELINE` if it is one, else the
    first row (None without rows)."""
    if baseline in rows:
        return baseline
    return DEFAULT_BASELINE if DEFAULT_BASELINE in rows else (rows[0] if rows else None)


def baseline_index(specs: Sequence[str], baseline: str | None) -> int | None:
    """The baseline's row in a result of ``specs`` (None when the result has no such row)."""
    return specs.index(baseline) if baseline in specs else None


def current_after(old: Sequence[str], current: int, new: Sequence[str]) -> int:
    """The current row once ``old`` became ``new``: the same tokenizer where it still is, else the
    same place, kept inside the new list."""
    spec = old[current] if 0 <= current < len(old) else None
    return new.index(spec) if spec in new else min(current, max(len(new) - 1, 0))


def without(rows: Sequence[str], i: int) -> list[str]:
    """``rows`` without row ``i``."""
    return [*rows[:i], *rows[i + 1 :]]


def swapped(rows: Sequence[str], i: int, j: int) -> list[str]:
    """``rows`` with rows ``i`` and ``j`` changed places."""
    out = list(rows)
    out[i], out[j] = out[j], out[i]
    return out
