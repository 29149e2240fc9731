"""PickyBPE in a real terminal: chosen in the form, trained (in the child process: the corpus is
above the thread's size), and stepped to its first split, whose why -- the IoS against τ -- and the
parts the token was split into are drawn."""

from __future__ import annotations

import re

from tests.pty.app_screen import DONE, wait_step
from tests.pty.conftest import DATA


def test_picky_trains_in_the_app_and_steps_to_a_split(run_app, tmp_path) -> None:  # noqa: ANN001
    corpus = tmp_path / "alice.txt"
    corpus.write_text((DATA / "alice29.txt").read_text(encoding="utf-8"), encoding="utf-8")
    term = run_app(corpus)
    term.wait_for("ready")
    term.click_text(" model     BPE", 12)  # the model select opens
    term.wait_for("PickyBPE")
    term.click_text("PickyBPE", 1)
    term.wait_for(lambda s: re.search(r"model\s+PickyBPE\s+▼", s) is not None and "Dismiss menu" not in s)
    rows = term.wait_for(lambda s: " vocab " in s).split("\n")
    y = next(i for i, line in enumerate(rows) if " vocab " in line and "model" not in line)
    term.click(rows[y].index(" vocab ") + 13, y)
    term.press("end", *["backspace"] * 8, pause=0.01)
    term.type("600")
    term.press("ctrl+t")
    screen = term.wait_for(DONE.search, 240)
    total = int(DONE.search(screen).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert total > 500, screen
    term.press("f2", "g")
    wait_step(term, 0)
    for k in range(1, 200):
        term.press("n")
        screen = term.wait_for(lambda s, k=k: f"step {k}/" in s and (f"merge {k}:" in s or f"split {k}:" in s or f"restore {k}:" in s))
        if f"split {k}:" in screen:
            break
    else:
        raise AssertionError("no split in the first 200 steps")
    screen = term.wait_for("why: IoS")
    assert re.search(r"IoS [\d.]+ > τ 0\.9", screen) and "split into" in screen, screen
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0
    assert term.group_processes() == []
