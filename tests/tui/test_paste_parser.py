"""The terminal input parser takes a bracketed paste whole: what arrives is what was pasted.

Textual's parser read a paste through its escape-sequence machine: an ESC inside a paste took the
next characters out of it and sent them as typed keys, before the paste (``A␛[2JB…E`` arrived as
``^[2JBCD^]0;TEA``), and a 10 MB paste went through it one character at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from textual import events

from tui.paste_parser import PASTE_END, PASTE_START, PasteParser
from tui.textual_compat import XTermParser

PASTED = "A\x1b[2JB\x1b]0;TITLE\x07C\x9b31mD\u202eE" + "".join(chr(c) for c in range(0x20, 0x7F))
STREAM = f"ab{PASTE_START}{PASTED}{PASTE_END}cd\x1b[A"


def parse(chunks: Iterable[str]) -> tuple[list[str], list[str]]:
    """(pastes, keys) the parser gives for input arriving in ``chunks``."""
    parser = PasteParser()
    out: list[Any] = []
    for chunk in chunks:
        out += parser.feed(chunk)
    pastes = [e.text for e in out if isinstance(e, events.Paste)]
    keys = [e.key for e in out if isinstance(e, events.Key)]
    return pastes, keys


def test_a_paste_holding_escape_sequences_arrives_whole_with_the_keys_around_it_in_place() -> None:
    assert parse([STREAM]) == ([PASTED], ["a", "b", "c", "d", "up"])


def test_a_paste_cut_anywhere_by_the_reads_arrives_whole() -> None:
    """Reads end anywhere (4 KB at a time); only a cut right after the start marker's ESC (at 3)
    is left to Textual's parser, since a lone ESC is the escape key."""
    expected = ([PASTED], ["a", "b", "c", "d", "up"])
    wrong = [cut for cut in range(1, len(STREAM)) if cut != 3 and parse([STREAM[:cut], STREAM[cut:]]) != expected]
    assert not wrong, f"cut at {wrong}"


def test_a_big_paste_never_goes_through_the_character_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's parser sees none of a paste's characters (it took them one by one: 0.67 s and
    a ten-million-item list per 10 MB); the markers are found by ``str.find``."""
    seen: list[int] = []
    feed = XTermParser.feed

    def counting(self: XTermParser, data: str) -> Iterable[Any]:
        seen.append(len(data))
        return feed(self, data)

    monkeypatch.setattr(XTermParser, "feed", counting)
    text = "hello 한국어 world\n" * 200_000
    stream = f"x{PASTE_START}{text}{PASTE_END}y"
    pastes, keys = parse(stream[i : i + 4096] for i in range(0, len(stream), 4096))
    assert pastes == [text] and keys == ["x", "y"]
    assert sum(seen) == 2  # "x" and "y"


def test_a_nul_is_dropped_from_a_paste_as_textual_drops_it() -> None:
    assert parse([f"{PASTE_START}a\x00b{PASTE_END}"]) == (["ab"], [])
