"""The `regex` module's Unicode tables must be tiktoken's, or ids differ on newly assigned characters.

Our pure-Python encoder splits text with the `regex` module; tiktoken splits with the Rust
`regex` crate compiled into its wheel. Each carries its own copy of the Unicode character
database, and `\\p{L}`, `\\p{N}`, `\\s` follow it: a letter assigned in a newer Unicode version is a
letter to one and an unassigned symbol to the other, and the pieces -- hence the ids -- differ
(`regex` 2025.10 moved to a newer Unicode than tiktoken 0.14: `'\\U0003d000:A'` gave other cl100k
ids). pyproject.toml pins both to releases whose tables agree; this test is the guard that says so
when a new release of either breaks the agreement.

The characters checked are exactly those that may disagree: every code point that Python's own
(older) database leaves unassigned but the installed `regex` treats as a letter, digit, mark or
space. Each is put in contexts whose split depends on its class, all in one text per encoding.
"""

from __future__ import annotations

import unicodedata

import pytest
import regex

from tests.engine.test_encode_parity import NAMES, python_of, tiktoken_of

@pytest.fixture(scope="module")
def newer() -> list[str]:
    """The code points to check: a scan of all 1.1 million, a few seconds -- made when these tests
    run, not when the suite is collected (it ran at import, and every collection waited for it)."""
    return [
        chr(c)
        for c in range(0x110000)
        if not 0xD800 <= c < 0xE000
        and unicodedata.category(chr(c)) == "Cn"
        and regex.match(r"[\p{L}\p{N}\p{M}\s]", chr(c))
    ]


@pytest.mark.parametrize("name", NAMES)
def test_newly_assigned_characters_split_as_in_tiktoken(name: str, newer: list[str]) -> None:
    text = "".join(f"{c}:A{c}'s {c}1 x{c}\n" for c in newer)
    ours, theirs = python_of(name).encode_ordinary(text), tiktoken_of(name).encode_ordinary(text)
    if ours != theirs:
        at = next(i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b)
        where = python_of(name).decode(ours[max(at - 3, 0) : at + 3])
        pytest.fail(
            f"regex {regex.__version__} and tiktoken split {where!r} differently: their Unicode tables "
            "differ; pin regex/tiktoken to releases that agree (pyproject.toml)"
        )
