"""Hostile text in a real terminal: nothing a file name, a corpus, a paste or a selection holds
may drive the terminal. Checked on the raw bytes the app wrote, not only on the
emulated screen: an OSC that retitles the terminal or a CSI that clears it leaves no mark on a
pyte screen but does its damage in the user's terminal."""

from __future__ import annotations

import re

from tests.hostile_text import HOSTILE
from tests.pty.pty_terminal import Terminal

PAYLOAD = "".join(
    HOSTILE[k] for k in ("osc-title", "csi-clear", "c1-csi", "c1-osc", "bidi-rlo", "zero-width", "markup", "markup-click")
)
NAME = "[bold red]F\x1b]0;PWNED\x07\u202eevil.txt"

_OWN_OSC = re.compile(rb"\x1b\]22;[a-z-]*\x07")  # Textual's pointer-shape request, its only OSC
_FORBIDDEN = [
    (re.compile(rb"\x1b\]"), "an OSC sequence (retitle, hyperlink, clipboard)"),
    (re.compile(rb"\x1b\[2J"), "a clear-screen"),
    (re.compile(rb"\xc2[\x80-\x9f]"), "a C1 control"),
    (
        re.compile(b"|".join(re.escape(chr(c).encode()) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A), *range(0x200B, 0x2010), 0x2060, 0xFEFF])),
        "a bidi or zero-width character",
    ),
]


def characters(screen: str) -> int | None:
    """The characters Inspect's status counts, or None before it shows them."""
    m = re.search(r"tokens?, ([\d,]+) characters?", screen)
    return int(m.group(1).replace(",", "")) if m else None


def assert_raw_inert(raw: bytes, where: str) -> None:
    """No byte sequence in ``raw`` that could act on the terminal, besides Textual's own."""
    cleaned = _OWN_OSC.sub(b"", raw)
    for pattern, what in _FORBIDDEN:
        m = pattern.search(cleaned)
        assert m is None, f"{where}: {what} reached the terminal: {cleaned[max(0, m.start() - 40): m.end() + 40]!r}"


def test_hostile_name_corpus_paste_and_selection_never_reach_the_terminal(run_app, workdir) -> None:  # noqa: ANN001
    corpus = workdir / "work" / NAME
    corpus.write_text(("the cat sat " + PAYLOAD + " on the mat\n") * 40, encoding="utf-8")
    term: Terminal = run_app(corpus)
    screen = term.wait_for("ready")
    assert "[bold red]F␛]0;PWNED␇<RLO>evil.txt" in screen, "the file name is shown literally, never as markup"
    assert_raw_inert(bytes(term.raw), "start-up with a hostile file name and corpus")

    term.press("ctrl+t")
    term.wait_for("done:", 60)
    term.press("G")
    screen = term.wait_for("step ")
    assert "␛]0;PWNED-TITLE␇" in screen or "PWNED-TITLE" in screen
    assert_raw_inert(bytes(term.raw), "training and stepping on the hostile corpus")

    mark = term.mark
    term.press("f3")
    term.wait_for("Corpus selection")
    term.click_text("Hello", 0)
    term.press("end")
    before = characters(term.wait_for(lambda s: characters(s) is not None, 20))
    term.paste(PAYLOAD)
    screen = term.wait_for("[bold red]F[/bold red][@click=app.quit]", 10)  # markup stays literal
    # and the text inspected is the text pasted: every character of it arrived (an ESC inside a
    # paste sent what followed it as typed keys, ahead of the paste)
    term.wait_for(lambda s: characters(s) == before + len(PAYLOAD), 10)
    assert_raw_inert(term.raw_since(mark), "a paste into the Inspect input")

    mark = term.mark
    term.press("f4")
    term.wait_for("add a row", 30)  # the Compare tab is up (and its text has the keyboard)
    term.wait_for("disputed boundaries", 30)
    term.paste(PAYLOAD)
    term.wait_for(lambda s: "PWNED-TITLE" in s and "[@click=app.quit]" in s, 20)
    assert_raw_inert(term.raw_since(mark), "a paste into the Compare text")

    mark = term.mark
    term.press("f2")
    term.wait_for("the cat sat")
    term.click_text("the cat sat", 2)
    term.press("f7", pause=0.5)  # select all in the corpus editor, at a person's pace
    term.press("f3")
    term.wait_for("Corpus selection")
    term.click_text("Corpus selection", 2)
    term.wait_for(lambda s: re.search(r"\d,\d{3} characters", s), 20)  # the whole corpus is inspected
    assert_raw_inert(term.raw_since(mark), "Corpus selection")

    term.press("ctrl+q")
    assert term.wait_exit(10) == 0
    assert_raw_inert(bytes(term.raw), "the whole session")
