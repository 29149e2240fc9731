"""HF's patterns and split behaviours: where a pre-tokenizer cuts, for plain and aligned strings.

``find_matches`` (``tokenizers/src/tokenizer/pattern.rs``) turns a pattern into contiguous
``(start, end, is_match)`` pieces covering the text; a *split behaviour* decides what becomes of the
matches (``Removed``, ``Isolated``, ``MergedWithPrevious``, ``MergedWithNext``, ``Contiguous``);
``invert`` swaps match and gap. :func:`split_spans` does all three, once, for both the fast (plain
string) and the aligned (:class:`.NormalizedString`) paths.

Regex patterns are Oniguruma patterns (Ruby syntax) run by the ``regex`` module:
:func:`onig_to_python` rewrites the one construct they read differently (``X{1,3}+`` is
"``X{1,3}`` repeated" for Oniguruma, a possessive interval for ``regex``), ``^``/``$`` match at
line ends as in Ruby, and an empty match right after a match is skipped, as Oniguruma's iterator
does. Every regex but the built-in ones runs with the project's time budget (:func:`run_pattern`),
so a catastrophic pattern in a downloaded file raises a clear error instead of hanging the app.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import regex

from ..pretokenizers import BUILTIN, run_regex
from ..regex_limits import check_regex

BEHAVIORS = ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")
Piece = tuple[int, int, bool]  # start, end, is_match

# An atom followed by an interval and '+': \p{..}, a [...] class, an escape, a group-free character.
_INTERVAL_PLUS = regex.compile(r"(\\[pP]\{[^}]*\}|\[(?:\\.|[^\]\\])*\]|\\.|[^\\()|])(\{\d*(?:,\d*)?\})\+")

def onig_to_python(pattern: str) -> str:
    r"""Rewrite Oniguruma's ``X{n,m}+`` ("repeat the interval") for the ``regex`` module.

    >>> onig_to_python(r"\p{N}{1,3}+|a+")
    '(?:\\p{N}{1,3})+|a+'
    """
    return _INTERVAL_PLUS.sub(r"(?:\1\2)+", pattern)


@lru_cache(maxsize=256)
def compile_onig(pattern: str) -> regex.Pattern[str]:
    """Compile an Oniguruma pattern from a tokenizer file; a bad one is a :class:`ConfigError`."""
    return check_regex(pattern, lambda p: regex.compile(onig_to_python(p), regex.MULTILINE), "regex")


TRUSTED = frozenset(p.pattern for p in BUILTIN.values() if p.trusted and p.pattern is not None)
"""Built-in patterns known to run in linear time: they skip the time budget (which costs ~2x)."""


def run_pattern(rx: regex.Pattern[str], method: str, text: str, *, trusted: bool = False) -> list[Any]:
    """``rx.<method>(text)`` (``findall`` or ``finditer``, materialised): a file's regex within the
    project-wide time budget (:func:`bpe_engine.pretokenizers.run_regex`); ``trusted`` patterns (the
    built-in ones, this package's own character classes) run directly."""
    if trusted or rx.pattern in TRUSTED:
        result = getattr(rx, method)(text)
        return result if method == "findall" else list(result)
    return run_regex(rx, text, method)


def regex_matches(rx: regex.Pattern[str], text: str, *, trusted: bool = False) -> list[Piece]:
    """HF ``find_matches`` for a regex: matches and the gaps between them, covering ``text``."""
    if not text:
        return [(0, 0, False)]
    out: list[Piece] = []
    prev = 0
    last_end = -1
    for m in run_pattern(rx, "finditer", text, trusted=trusted):
        start, end = m.span()
        if start == end and end == last_end:
            continue  # Oniguruma's iterator never returns an empty match touching the previous one
        if prev != start:
            out.append((prev, start, False))
        out.append((start, end, True))
        prev = last_end = end
    if prev != len(text):
        out.append((prev, len(text), False))
    return out


def split_spans(matches: Sequence[Piece], behavior: str, invert: bool = False) -> list[tuple[int, int]]:
    """The ``[start, end)`` spans a split keeps (empty ones included; callers drop them)."""
    if invert:
        matches = [(s, e, not m) for s, e, m in matches]
    if behavior == "Isolated":
        return [(s, e) for s, e, _ in matches]
    if behavior == "Removed":
        return [(s, e) for s, e, m in matches if not m]
    spans: list[list[int]] = []
    previous = False
    if behavior == "MergedWithNext":
        for s, e, m in reversed(matches):
            if m and not previous and spans:
                spans[-1][0] = s
            else:
                spans.append([s, e])
            previous = m
        spans.reverse()
    else:
        contiguous = behavior == "Contiguous"
        for s, e, m in matches:
            merge = (m == previous) if contiguous else (m and not previous)
            if merge and spans:
                spans[-1][1] = e
            else:
                spans.append([s, e])
            previous = m
    return [(s, e) for s, e in spans]
