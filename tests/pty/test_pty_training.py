"""Training in a real terminal: a big corpus from the command line, stepping, esc, ctrl+q.

These are the scenarios that Pilot could not see: above 300,000 characters the first release
trained in a child process that inherited Textual's stand-in stderr (``fileno() == -1``) and
failed with ``bad value(s) in fds_to_keep`` -- only in a terminal.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.pty.app_screen import DONE, merges_done, progress_shown, set_vocab, step_shown, train_until_done, wait_step


def test_a_1mb_corpus_trains_and_steps_in_a_terminal(run_app, corpus_1mb) -> None:  # noqa: ANN001
    term = run_app(corpus_1mb)
    term.wait_for("ready")
    term.wait_for(training_options_shown)
    done = train_until_done(term)
    assert done > 0
    term.press("g")
    wait_step(term, 0)
    term.press("n")
    wait_step(term, 1)
    term.press("n")
    wait_step(term, 2)
    term.press("b")
    wait_step(term, 1)
    term.press("j")
    term.wait_for("Jump to merge")
    term.type("5")
    term.press("enter")
    wait_step(term, 5)
    term.press("G")
    screen = wait_step(term, done)
    assert step_shown(screen) == (done, done)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0
    assert term.group_processes() == []


def test_esc_during_training_stops_it_and_keeps_the_merges(run_app, corpus_slow_to_train) -> None:  # noqa: ANN001
    term = run_app(corpus_slow_to_train)
    term.wait_for("ready")
    set_vocab(term, 30000)
    term.press("ctrl+t")
    term.wait_for(lambda s: merges_done(s) >= 50, 90)
    term.press("esc")
    screen = term.wait_for("cancelled after", 60)  # a bound for a stuck app, not a speed test (bench_pty times it)
    kept = int(re.search(r"cancelled after ([\d,]+) merges", screen).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert kept >= 50
    term.wait_alone()  # the training child is killed and reaped after esc
    term.press("f2")  # the keyboard leaves the vocab field (there n is text) for the Train tab
    term.press("n", "n")
    wait_step(term, 2)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def test_ctrl_q_during_training_exits_cleanly(run_app, corpus_slow_to_train) -> None:  # noqa: ANN001
    term = run_app(corpus_slow_to_train)
    term.wait_for("ready")
    set_vocab(term, 30000)
    term.press("ctrl+t")
    term.wait_for(lambda s: merges_done(s) >= 20, 90)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0, "ctrl+q must end the app while it trains"
    assert term.group_processes() == [], "no process of the app may outlive it"
    assert term.raw.rstrip().endswith(b"\x1b[?1049l") or b"\x1b[?1049l" in term.raw[-200:], "terminal restored"


def training_options_shown(screen: str) -> bool:
    """The form's rows for the CLI's --end-of-word, --max-token-length and --unk-token."""
    return re.search(r"</w>\s+attached", screen) is not None and re.search(r"max len\s+16\s.*unk\s", screen) is not None


def test_small_terminal_80x24_trains_and_steps(run_app, corpus_1mb) -> None:  # noqa: ANN001
    term = run_app(corpus_1mb, size=(80, 24))
    term.wait_for("ready")
    term.wait_for(training_options_shown)
    train_until_done(term)
    term.press("g", "n", "n")
    screen = wait_step(term, 2)
    assert "merge 2" in screen or "new " in screen, "the step's merge is on screen at 80x24"
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


@pytest.mark.long
@pytest.mark.parametrize("size", ["5mb", "50mb"])
def test_a_big_corpus_trains_with_live_progress(run_app, request, size: str) -> None:  # noqa: ANN001
    """The corpus is cut into words when it is opened (for the facts line, and ctrl+t trains on
    that cut): the facts line shows the cut move, then the progress line shows the merges."""
    term = run_app(request.getfixturevalue(f"corpus_{size}"))
    term.wait_for("ready", 120)
    cutting = watch_progress(term, lambda s: "unique" in s, 600)
    assert len({p for p in cutting if p.startswith("counting")}) >= 2, f"the cut must show it moves (saw {cutting})"
    set_vocab(term, 5000)
    term.press("ctrl+t")
    training = watch_progress(term, DONE.search, 3600)
    assert DONE.search(term.screen_text()), term.screen_text()
    assert any(p.startswith("merged") for p in training), f"training must show its merges (saw {training})"
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def watch_progress(term, until, timeout: float) -> list[str]:  # noqa: ANN001
    """Every distinct progress the screen shows until ``until(screen)`` (read as fast as pyte can)."""
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = term.screen_text()
        if until(screen):
            break
        shown = progress_shown(screen)
        if shown and shown not in seen:
            seen.append(shown)
        time.sleep(0.02)
    return seen
