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
    term.send("v")  # and once more: back to the first view, the rows
    term.wait_for(lambda s: "│ boundary" in s and "draw its curve" not in s, 10)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0
