"""The file picker (ctrl+o, ctrl+l) in a real terminal: file and directory names are shown in the
visible form and never drive the terminal. A directory named with an OSC title, a
clear-screen and a bidi override once retitled the user's terminal and cleared it when the picker
listed it: Textual's DirectoryTree paints names as they are."""

from __future__ import annotations

from tests.pty.pty_terminal import Terminal
from tests.pty.test_pty_hostile import assert_raw_inert

DIRECTORY = "d\x1b]0;PWNED\x07\x1b[2J\u202eir"
FILE = "[bold red]f\x9b31m\u200b.txt"


def test_the_picker_shows_hostile_names_safely(run_app, workdir) -> None:  # noqa: ANN001
    (workdir / "work" / DIRECTORY).mkdir()
    (workdir / "work" / FILE).write_text("the cat sat on the mat\n", encoding="utf-8")
    term: Terminal = run_app()
    term.wait_for("distinct bytes")  # the app is ready for keys
    mark = term.mark
    term.press("ctrl+o")
    shown_dir, shown_file = "d␛]0;PWNED␇␛[2J<RLO>ir", "[bold red]f<U+009B>31m<ZWSP>.txt"
    # both rows: the tree lists its entries as they load, so one frame can hold the first alone
    screen = term.wait_for(lambda s: shown_dir in s and shown_file in s, 20)
    assert shown_file in screen  # literal, not markup; C1 and zero-width visible
    assert_raw_inert(term.raw_since(mark), "the file picker listing hostile names")
    term.press("escape")
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0
