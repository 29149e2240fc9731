"""Every character of a corpus line is drawn, whatever it holds (a BOM is shown as ``<BOM>``).

An invisible or control character is painted as a visible mark one cell wide, but Textual's text
area wrapped the line as if it took no cell: the marks pushed the line's last characters past
the edge, and the line was cut there (a line with a BOM lost the "), " after "(Master Darling"; in
a read-only preview, where the mark was "<BOM>", four characters were lost per mark).
"""

from __future__ import annotations

import pytest

from tests.tui.pilot import settle_panes
from tui.app import ExplorerApp
from tui.train.corpus_pane import EDIT_LIMIT
from tui.widgets.safe_text import SafeTextArea

LINE = "\ufeffThe story of Peter (Master Darling), told by Wendy\u200d and \x1b[31mJohn\u202e, all of it. " * 3
MARKS = "¦␛¤␡"


def drawn(area: SafeTextArea, rows: int) -> str:
    """The text drawn on the area's first ``rows`` rows, marks and padding left out."""
    text = "".join(area.render_line(y).text.rstrip() for y in range(rows))
    return "".join(c for c in text if c not in MARKS).replace(" ", "")


@pytest.mark.parametrize("big", [False, True], ids=["editable", "read-only preview"])
async def test_a_wrapped_line_with_marks_loses_no_character(big: bool) -> None:
    corpus = LINE + "\n" + ("filler line\n" * (EDIT_LIMIT // 12 + 10) if big else "")
    app = ExplorerApp(corpus)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle_panes(pilot)
        area = app.query_one("#corpus-text", SafeTextArea)
        assert area.read_only == big
        rows = len(area.wrapped_document.get_offsets(0)) + 1  # the rows the first line wraps to
        assert rows >= 3
        expected = "".join(c for c in LINE if c.isprintable()).replace(" ", "")
        assert drawn(area, rows) == expected


async def test_a_bom_shows_as_bom_in_the_corpus_pane() -> None:
    app = ExplorerApp("\ufeffhello world\n")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        area = app.query_one("#corpus-text")
        assert "\ufffd" not in area.render_line(0).text and "hello" in area.render_line(0).text
        assert "<BOM>" in str(area.border_subtitle)
        big = ExplorerApp("\ufeff" + "hello world\n" * 5000)  # a read-only preview marks it in one cell, as
    async with big.run_test(size=(120, 36)) as pilot:  # its wrapping counts it (above)
        await pilot.pause()
        area = big.query_one("#corpus-text")
        assert "¦hello" in area.render_line(0).text and "<BOM>" in str(area.border_subtitle)
