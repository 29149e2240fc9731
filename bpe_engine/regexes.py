"""Compiling and running regular expressions: every pattern is compiled once (cached), and a
pattern from a user or a file runs with a time budget.

The built-in pre-tokenizer patterns are known to run in linear time and run bare (``timeout=``
roughly doubles the cost of a scan); anything else goes through :func:`run_regex`. Re-exported by
:mod:`bpe_engine.pretokenizers`, where the other modules import them from.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import regex

from .errors import ConfigError


@lru_cache(maxsize=64)
def compile_pattern(pattern: str) -> regex.Pattern[str]:
    """Compile a user or built-in pattern; a bad one is a :class:`ConfigError` naming the problem."""
    try:
        return regex.compile(pattern)
    except regex.error as exc:  # pragma: no branch - message comes from the regex module
        raise ConfigError(f"invalid pre-tokenizer regex {pattern!r}: {exc}") from None


# --- user regexes run with a time budget ---------------------------------------------------------
REGEX_BUDGET_SECONDS = 1.0
"""What any call of a user regex may take, plus :data:`REGEX_BUDGET_PER_MILLION` per million characters."""
REGEX_BUDGET_PER_MILLION = 2.0
"""Seconds per million characters: a sane pattern runs at 1-10 MB/s, so only backtracking hits it."""


def regex_budget(length: int) -> float:
    """Seconds a user regex may spend on ``length`` characters (1 s + 2 s per million characters).

    >>> regex_budget(2_000), regex_budget(10_000_000)
    (1.004, 21.0)
    """
    return REGEX_BUDGET_SECONDS + REGEX_BUDGET_PER_MILLION * length / 1_000_000


_ITERATORS = {"finditer": "finditer", "splititer": "splititer"}


def run_regex(
    pattern: str | regex.Pattern[str], text: str, method: str = "findall", *args: Any, budget: float | None = None
) -> Any:
    """Run ``pattern.<method>(text, *args)`` within a time budget; the one way to run a user's regex.

    A pattern from a user or a file may backtrack catastrophically (``(a|a)+$`` takes hours on
    2,000 characters): the ``regex`` module's ``timeout=`` stops it, and the caller gets a
    :class:`ConfigError` naming the pattern and the budget instead of a hang. ``budget`` defaults
    to :func:`regex_budget` of the text's length. Iterator methods (``finditer``, ``splititer``)
    are run to the end here and return a list, so the budget covers the whole scan.

    Built-in patterns do not come here: they are known to run in linear time, and ``timeout=``
    roughly doubles the cost of a scan.

    >>> run_regex(r"\\w+", "two words")
    ['two', 'words']
    >>> run_regex(r"(a|a)+$", "a" * 2_000 + "b", budget=0.05)
    Traceback (most recent call last):
    ...
    bpe_engine.errors.ConfigError: regex '(a|a)+$' took longer than its time budget of 0.05 s on 2,001 characters: it backtracks catastrophically; rewrite it without nested or overlapping repetition such as (a|a)+
    """
    compiled = compile_pattern(pattern) if isinstance(pattern, str) else pattern
    limit = regex_budget(len(text)) if budget is None else budget
    try:
        result = getattr(compiled, method)(text, *args, timeout=limit)
        return list(result) if method in _ITERATORS else result
    except TimeoutError:
        raise ConfigError(
            f"regex {compiled.pattern!r} took longer than its time budget of {limit:g} s on {len(text):,} characters: "
            "it backtracks catastrophically; rewrite it without nested or overlapping repetition such as (a|a)+"
        ) from None
