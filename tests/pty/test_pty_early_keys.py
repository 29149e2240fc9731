"""A key pressed as soon as the app says "ready" is obeyed, at 80x24 too.

At 80x24, f3 pressed right after "ready" showed Inspect for a moment, then the app jumped back to
Train (4 times in 4): focus, reset while the small layout settled, went back to the App's
AUTO_FOCUS widget -- the merge list on the hidden Train tab -- and TabbedContent follows focus to
the tab holding it. A user's first key must not be undone.

Keys typed as one burst right after a key that opens a dialog (ctrl+l, j) go into the dialog."""

from __future__ import annotations

import re
import time

import pytest

from tests.pty.app_screen import DONE, wait_step
from tests.pty.pty_terminal import Terminal, key_bytes


@pytest.mark.parametrize(("key", "shows"), [("f3", "Corpus selection"), ("f4", "add a row")])
def test_a_tab_key_right_after_ready_stays_on_its_tab(run_app, corpus_1mb, key: str, shows: str) -> None:  # noqa: ANN001
    term: Terminal = run_app(corpus_1mb, size=(80, 24))
    term.wait_for("ready", 30)
    term.press(key, pause=0)
    term.wait_for(shows, 20)
    time.sleep(2.5)  # the corpus facts arrive and the layout settles: the tab must stay
    assert shows in term.screen_text(), term.screen_text()
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def test_a_path_typed_right_after_ctrl_l_is_not_lost(run_app) -> None:  # noqa: ANN001
    """``ctrl+l gpt2 enter`` as one burst, as a fast typist or a paste sends it: the keys reached
    the dialog before its input had focus and were dropped (the dialog stayed open, empty)."""
    term: Terminal = run_app()
    term.wait_for("ready", 30)
    term.send(key_bytes("ctrl+l") + b"gpt2\r")
    screen = term.wait_for(lambda s: "exploring gpt2" in s, 30)
    assert "path (enter confirms" not in screen, "the dialog is closed"
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def test_a_rank_typed_right_after_j_is_not_lost(run_app) -> None:  # noqa: ANN001
    term: Terminal = run_app()
    term.wait_for("ready", 30)
    term.press("ctrl+t")
    term.wait_for(DONE.search, 60)
    term.send(b"j12\r")
    wait_step(term, 12, 30)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


@pytest.mark.parametrize(("key", "typed", "where"), [("f3", "안녕하세요", "<|endoftext|>안녕하세요"), ("f4", "xyzzy", "caféxyzzy")])
def test_text_typed_right_after_the_first_f3_or_f4_goes_into_its_box(run_app, key: str, typed: str, where: str) -> None:  # noqa: ANN001
    """The first f3 / f4 mounts its pane (~1 s): text typed at once reached the screen while no
    widget had focus and was dropped (seen by hand in tmux). It now goes into the tab's text box,
    after the text there (a focus move never selects the text for the next key to replace)."""
    term: Terminal = run_app()
    term.wait_for("ready", 30)
    term.send(key_bytes(key) + typed.encode("utf-8"))
    term.wait_for(where, 30)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


@pytest.mark.parametrize(("key", "dialog"), [("ctrl+o", "path (enter confirms"), ("ctrl+l", "path (enter confirms"), ("j", "Jump to merge")])
def test_esc_closes_a_dialog_that_takes_typed_ahead_keys(run_app, key: str, dialog: str) -> None:  # noqa: ANN001
    """esc is a dialog's way out. The first type-ahead passed every key that reached the dialog's
    screen on to its input, esc too, and in a terminal the dialog stayed open."""
    term: Terminal = run_app()
    term.wait_for("ready", 30)
    if key == "j":
        term.press("ctrl+t")
        term.wait_for(DONE.search, 60)
    term.press(key)
    term.wait_for(dialog, 20)
    term.press("esc")
    term.wait_for(lambda s: dialog not in s, 10)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def open_compare_keys(term: Terminal) -> None:
    """Compare, with the keyboard on its first control after the text box (its keys work there)."""
    term.wait_for("ready", 30)
    term.press("f4")
    term.wait_for("add a row", 30)
    term.press("tab")
    term.wait_for("a Rows…", 10)


def test_a_search_typed_right_after_a_goes_into_the_picker(run_app) -> None:  # noqa: ANN001
    """``a cl100k`` as one burst: ``a`` (Compare's binding) runs once the key has gone up to the
    app, and the keys after it had already gone to the control that had focus; they were lost
    and the picker opened with an empty search (seen in a pty)."""
    term: Terminal = run_app()
    open_compare_keys(term)
    term.send(b"acl100k")
    screen = term.wait_for(lambda s: re.search(r"\b1 of \d+ shown", s) is not None, 20)
    assert re.search(r"▊\s+cl100k\s+▎", screen), screen
    term.press("esc")
    term.wait_for(lambda s: "Rows to compare" not in s, 10)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def test_a_tab_key_typed_right_after_the_first_f3_moves_the_focus(run_app) -> None:  # noqa: ANN001
    """A key held while Inspect mounts and not taken by its text box (tab) goes on to the app's
    bindings: sent again from the screen, it stopped there (Textual stops a message at its
    sender), so the keyboard stayed in the box."""
    term: Terminal = run_app()
    term.wait_for("ready", 30)
    term.send(key_bytes("f3") + key_bytes("tab"))
    term.wait_for("m More tokenizers", 30)  # the keys of Inspect's controls: the box lost focus
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0
