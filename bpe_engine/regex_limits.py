"""Limits every regex from a user or a file is held to before it is compiled.

The ``regex`` module parses and matches a pattern by recursion, so a pattern nesting its groups
hundreds deep was a RecursionError traceback (``--pattern`` with 250 nested groups), or inside a
tokenizer.json a misleading "invalid regex". :func:`check_regex` is the one compile path for user
and file patterns: a depth limit, and whatever the compiler raises, as one line.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from .errors import ConfigError

MAX_GROUP_DEPTH = 100
"""Groups a regex may nest: the ``regex`` module parses and matches a pattern by recursion, so
250 nested groups were a RecursionError traceback (or, inside a tokenizer.json, "invalid regex")."""


def group_depth(pattern: str) -> int:
    """How deep the pattern's groups nest (escapes and character classes skipped).

    >>> group_depth(r"(a(b)\\(c[(]d)"), group_depth("x")
    (2, 0)
    """
    depth = deepest = 0
    in_class = escaped = False
    for ch in pattern:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == ")":
            depth = max(0, depth - 1)
    return deepest


def shown_pattern(pattern: str) -> str:
    """A pattern as a message shows it: quoted, and cut short past 80 characters."""
    return repr(pattern) if len(pattern) <= 80 else repr(pattern[:77]) + "..."


def check_regex(
    pattern: str, compile_: Callable[[str], regex.Pattern[str]], what: str, *, field: str | None = None
) -> regex.Pattern[str]:
    """``compile_(pattern)``, with a pattern nested past :data:`MAX_GROUP_DEPTH` or one the
    ``regex`` module cannot compile refused in one line: ``what`` names it (``--pattern``), ``field``
    is the settings field the error belongs to (the app shows it there)."""
    depth = group_depth(pattern)
    if depth > MAX_GROUP_DEPTH:
        raise ConfigError(f"{what} {shown_pattern(pattern)} nests groups {depth} deep; at most {MAX_GROUP_DEPTH} are read", field=field)
    try:
        return compile_(pattern)
    except (regex.error, OverflowError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise ConfigError(f"invalid {what} {shown_pattern(pattern)}: {reason}", field=field) from None


__all__ = ["MAX_GROUP_DEPTH", "check_regex", "group_depth", "shown_pattern"]
