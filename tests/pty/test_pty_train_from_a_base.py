"""Training from a real tokenizer in a real terminal: "BPE from a base" picked in the form, cl100k_base
extended on Korean in the child process, the base's merges one block at step 0, the new merges
stepped with their why, and the corpus taking fewer tokens step by step -- read from what is drawn."""

from __future__ import annotations

import re
from pathlib import Path

from tests.pty.app_screen import DONE, wait_step
from tests.pty.test_pty_unigram import corpus_tokens

DATA = Path(__file__).resolve().parents[1] / "data"


def set_field(term, label: str, value: str) -> None:  # noqa: ANN001
    """Click into the form field after ``label`` (on the form's own line), clear it, type ``value``."""
    def field_row(screen: str) -> int | None:  # the form's line that starts with the label
        return next((i for i, line in enumerate(screen.split("\n")) if re.match(rf" {label}\s{{2,}}\S", line)), None)

    rows = term.wait_for(lambda s: field_row(s) is not None).split("\n")
    y = field_row("\n".join(rows))
    assert y is not None
    term.click(rows[y].index(f" {label} ") + 13, y)  # the labels are 10 columns wide: into the field
    term.press("end", *["backspace"] * 8, pause=0.01)
    term.type(value)
    term.wait_for(lambda s: re.search(rf" {label}\s+{value}\b", s) is not None)


def test_extending_cl100k_in_the_app_steps_the_new_merges(run_app, tmp_path: Path) -> None:  # noqa: ANN001
    corpus = tmp_path / "ko.txt"
    text = (DATA / "constitution.txt").read_text(encoding="utf-8")
    corpus.write_text(text * 3, encoding="utf-8")  # above 100,000 characters: the run goes to the child process
    term = run_app(corpus)
    term.wait_for("ready")
    term.click_text(" model     BPE", 12)
    term.wait_for("BPE from a base")
    term.click_text("BPE from a base", 1)
    term.wait_for(lambda s: re.search(r"model\s+BPE from a\s+▼", s) is not None and "Dismiss menu" not in s)
    term.wait_for(lambda s: re.search(r" base\s+cl100k_base", s) is not None)
    set_field(term, "add", "200")
    term.press("ctrl+t")
    screen = term.wait_for(DONE.search, 240)
    assert DONE.search(screen).group(1) == "200", screen  # type: ignore[union-attr]
    term.wait_for("the base's merges, as one block")
    term.press("f2", "g")
    wait_step(term, 0)
    before = corpus_tokens(term.wait_for(lambda s: corpus_tokens(s) is not None))
    term.press("n")
    wait_step(term, 1)
    term.wait_for(lambda s: "merge 1:" in s and "why: count" in s)
    term.press("G")
    wait_step(term, 200)
    after = corpus_tokens(term.wait_for(lambda s: corpus_tokens(s) is not None and "step 200/" in s))
    assert before is not None and after is not None and after < before, (before, after)
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0
    assert term.group_processes() == []
