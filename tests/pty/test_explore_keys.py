"""Compare's keys in a real terminal, where keys arrive together: ``v v v`` sent in one write (as
a fast typist or a terminal's key repeat sends them) must advance the view three times
(Rows -> Stats -> Text -> Curve). Each ``v`` once read the view the previous one had asked for
but not yet shown, so the three advanced it once."""

from __future__ import annotations


def test_three_v_sent_at_once_advance_three_views(run_app) -> None:  # noqa: ANN001
    term = run_app()  # the built-in sample corpus
    term.wait_for("distinct bytes")
    term.press("f4")
    term.wait_for("disputed boundaries", 30)
    term.click_text("│ boundary", 0)  # the rows take the keyboard (v in the text box is text)
    term.wait_for("point at a token", 10)
    term.send("vvv")
    term.wait_for(lambda s: "train a model (ctrl+t) to draw its curve" in s, 10)  # the Curve view
    term.send("v")  # the Chat view: the text as one user message, each row's prompt or why there is none
    term.wait_for(lambda s: "the reply's opening" in s, 10)
    term.send("v")  # the Languages view: the current row's premium per UDHR language
    term.wait_for(lambda s: "search a language by name or code" in s, 30)
    term.send("v")  # and once more: back to the first view, the rows
    term.wait_for(lambda s: "│ boundary" in s and "search a language" not in s, 10)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def test_the_help_scrolls_to_its_end_at_80x24(run_app) -> None:  # noqa: ANN001
    """At 80x24 the help was cut after "+ / =" with no way to reach the rest; it lists the shown
    tab's keys too (Compare's "a" picker)."""
    term = run_app(size=(80, 24))
    term.wait_for("distinct bytes")
    term.press("f4")
    term.wait_for("add a row", 30)
    term.press("esc")  # out of the text box, where ? would be typed
    term.press("f1")
    term.wait_for("Keys — bpe-explorer", 10)
    term.press("end")
    term.wait_for(lambda s: "inside a text field" in s and "Text fields and prompts" in s, 10)
    term.press("home")  # back to the top: the app's keys, not the end's
    term.wait_for(lambda s: "inside a text field" not in s and "ctrl+o" in s, 10)
    term.press("pagedown")  # a page on: the shown tab's keys (Compare's picker)
    term.wait_for(lambda s: "add or remove rows" in s, 10)
    term.press("esc")
    term.wait_for(lambda s: "Keys — bpe-explorer" not in s, 10)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0
