"""Exploring in a real terminal: tabs, Korean typed into Inspect and Compare, save then load,
opening another file, and stepping right after training (the first release could lock up)."""

from __future__ import annotations

import time

from tests.pty.app_screen import DONE, step_shown, train_until_done, wait_step


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime in clock ticks (100 Hz)


def test_tabs_and_korean_in_inspect_and_compare(run_app) -> None:  # noqa: ANN001
    term = run_app()  # the built-in sample corpus
    term.wait_for("ready")
    train_until_done(term)
    term.press("f3")
    term.wait_for("Corpus selection", 30)
    term.click_text("Hello", 0)
    term.press("end")
    term.type(" 대한민국")
    term.wait_for(lambda s: "대한민국" in s and " tokens, " in s and "characters split across tokens" in s, 10)
    term.press("f4")
    term.wait_for("add a row", 30)  # the Compare tab is up (and its text has the keyboard)
    term.wait_for("disputed boundaries", 30)
    term.type("한글 ")
    screen = term.wait_for("한글", 10)
    assert "ours k=" in screen and "(follows Train step)" in screen
    term.press("f2")
    screen = term.wait_for(lambda s: step_shown(s) is not None)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def test_save_then_load_then_open_another_file(run_app, workdir, corpus_300k) -> None:  # noqa: ANN001
    term = run_app()
    term.wait_for("ready")
    done = train_until_done(term)
    term.press("ctrl+s")
    term.wait_for("Save the tokenizer")
    term.press("enter")  # the prompt offers my-tokenizer (relative to the working directory)
    term.wait_for("Saved", 30)
    saved = workdir / "work" / "my-tokenizer"
    assert (saved / "merges.txt").exists() and (saved / "tokenizer.json").exists()

    term.press("ctrl+l")
    term.wait_for("Load a tokenizer")
    term.type("my-tokenizer")
    term.press("enter")
    term.wait_for(f"exploring my-tokenizer: {done:,} merges", 60)
    term.press("G")
    wait_step(term, done)

    term.press("ctrl+o")
    term.wait_for("Open a text file")
    term.type(str(corpus_300k))
    term.press("enter")
    term.wait_for(corpus_300k.name, 30)
    # the loaded tokenizer's merges are replayed on the new corpus (8.2.5)
    term.wait_for(f"corpus at step k: {corpus_300k.name}", 60)
    term.press("ctrl+t")  # the 300k corpus trains in the child, in a terminal
    term.wait_for(DONE.search, 120)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def test_stepping_right_after_training_never_locks_up(run_app) -> None:  # noqa: ANN001
    term = run_app()
    term.wait_for("ready")
    term.press("ctrl+t")
    term.wait_for(DONE.search, 60)
    for _ in range(3):
        term.press("n", pause=0.1)
    wait_step(term, 3)
    time.sleep(1.0)
    before = cpu_seconds(term.pid)
    time.sleep(2.0)
    busy = cpu_seconds(term.pid) - before
    assert busy < 1.0, f"the app burns CPU while idle after stepping ({busy:.2f} s in 2 s)"
    term.press("b", "b", "G", "g", "n")
    wait_step(term, 1)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def test_the_footer_drops_esc_cancel_once_a_quick_run_ends(run_app) -> None:  # noqa: ANN001
    """The sample trains in ~0.1 s: the footer built the page of keys for a running run (with "esc
    Cancel") and, when the run ended while that page was still being mounted, showed it anyway --
    "esc Cancel" stayed until the next focus move (seen by hand at 100x30)."""
    for attempt in range(3):
        term = run_app(size=(100, 30))
        term.wait_for("unique")  # the corpus facts are in: ctrl+t trains on their cut
        term.press("ctrl+t")
        term.wait_for(DONE.search, 60)
        time.sleep(0.5)
        footer = term.screen_text().rstrip("\n").split("\n")[-1]
        assert "n Next" in footer and "Cancel" not in footer, f"attempt {attempt + 1}: {footer!r}"
        term.press("ctrl+q")
        assert term.wait_exit(10) == 0
