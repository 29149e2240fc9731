"""What the explorer's screen says, read back for the pty tests and benchmarks: the step, the
progress, the vocab field; and the few user gestures every scenario needs."""

from __future__ import annotations

import re

from tests.pty.pty_terminal import Terminal

DONE = re.compile(r"done: ([\d,]+) merges")
STEP = re.compile(r"step ([\d,]+)/([\d,]+)")
TRAINING = re.compile(r"training: ([\d,]+) / ([\d,]+) merges")
COUNTING = re.compile(r"counting words: ([\d,]+) / ([\d,]+) characters")


def step_shown(screen: str) -> tuple[int, int] | None:
    m = STEP.search(screen)
    return (int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))) if m else None


def wait_step(term: Terminal, k: int, timeout: float = 60) -> str:
    return term.wait_for(lambda s: (step_shown(s) or (None,))[0] == k, timeout)


def merges_done(screen: str) -> int:
    m = TRAINING.search(screen)
    return int(m.group(1).replace(",", "")) if m else 0


def progress_shown(screen: str) -> str | None:
    """What the progress line says a run has done so far ("counting 1,048,576" while the corpus
    is cut into words, "merged 120" while it trains), or None."""
    for name, pattern in (("counting", COUNTING), ("merged", TRAINING)):
        m = pattern.search(screen)
        if m:
            return f"{name} {m.group(1)}"
    return None


def vocab_field(screen: str) -> str:
    """The vocab field's text ("" while it is not on screen, e.g. mid-redraw)."""
    line = next((line for line in screen.split("\n") if " vocab " in line and "min freq" in line), None)
    return "" if line is None else line.split("vocab", 1)[1].split("min freq")[0].strip()


def set_vocab(term: Terminal, value: int) -> None:
    """Click into the vocab field, clear it and type ``value`` -- fast, with no pause between the
    backspaces and the digits: the first release garbled exactly this on a 1 MB corpus (Textual
    applied backspace after a trip up the widget tree, so later digits overtook it)."""
    form = lambda screen: any(" vocab " in line and "min freq" in line for line in screen.split("\n"))  # noqa: E731
    rows = term.wait_for(form).split("\n")
    y = next(i for i, line in enumerate(rows) if " vocab " in line and "min freq" in line)  # the form, not corpus text
    term.click(rows[y].index(" vocab ") + 13, y)
    term.press("end", *["backspace"] * 8, pause=0.01)
    term.type(str(value))
    term.wait_for(lambda s: vocab_field(s) == str(value))


def train_until_done(term: Terminal, timeout: float = 120) -> int:
    term.press("ctrl+t")
    screen = term.wait_for(DONE.search, timeout)
    return int(DONE.search(screen).group(1).replace(",", ""))  # type: ignore[union-attr]
