"""Every character typed is kept, printable or not.

Textual's fields take a typed character only if ``str.isprintable()`` says so. Typed (not pasted)
into Inspect or Compare, an ideographic space (U+3000, what a CJK input method sends for a space),
a no-break space, the ZWJ of 👩‍💻 (an emoji picker types it), a zero-width space and an emoji newer
than Python's Unicode tables vanished: the text encoded was not the text typed (seen by hand)."""

from __future__ import annotations

import re

from tests.pty.pty_terminal import Terminal

TYPED = "👩\u200d💻\u3000a\u00a0b\u200bc\U0001fae9"  # 5 of its 10 code points are not "printable"
CODE_POINTS = len(TYPED)


def count(pattern: str, screen: str) -> int | None:
    m = re.search(pattern, screen)
    return int(m.group(1).replace(",", "")) if m else None


def test_characters_typed_into_inspect_and_compare_are_all_kept(run_app) -> None:  # noqa: ANN001
    term: Terminal = run_app()
    term.wait_for("ready")
    term.press("f3")
    term.wait_for("Corpus selection", 30)
    term.press("end", *["backspace"] * 40, pause=0.005)  # the box's sample text is gone
    term.wait_for(lambda s: "Hello" not in s.split("\n")[4], 10)
    term.send(TYPED.encode())  # typed: one key per character, no bracketed paste
    term.wait_for(lambda s: count(r"tokens, ([\d,]+) characters", s) == CODE_POINTS, 10)

    term.press("f4")
    term.wait_for("add a row", 30)
    before = count(r"([\d,]+) code points", term.wait_for(lambda s: count(r"([\d,]+) code points", s) is not None, 30))
    assert before is not None
    term.send(TYPED.encode())
    term.wait_for(lambda s: count(r"([\d,]+) code points", s) == before + CODE_POINTS, 10)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def test_a_paste_into_inspect_keeps_all_its_lines(run_app) -> None:  # noqa: ANN001
    """Inspect's box is one line: Input kept a paste's first line only, so a pasted paragraph
    was encoded as its first line. Every line now comes in (shown ↵), CR LF and CR as LF, as
    Compare's text area makes them."""
    term: Terminal = run_app()
    term.wait_for("ready")
    term.press("f3")
    term.wait_for("Corpus selection", 30)
    term.press("end", *["backspace"] * 40, pause=0.005)
    term.wait_for(lambda s: "Hello" not in s.split("\n")[4], 10)
    term.paste("first line\nsecond line 둘째\r\nthird")
    screen = term.wait_for(lambda s: count(r"tokens, ([\d,]+) characters", s) == 31, 10)  # 10 + 1 + 14 + 1 + 5
    assert "first line↵second line 둘째↵third" in screen
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0
