"""A Unigram run in a real terminal: chosen in the form, trained on a 1 MB corpus in the child
process, stepped from the seeds through EM iterations and pruning rounds to the final vocabulary,
with the corpus re-segmented by each step's model -- read from what is drawn."""

from __future__ import annotations

import re

from tests.pty.app_screen import set_vocab, wait_step

STEP_LINE = re.compile(r"step [\d,]+/[\d,]+ · ([\d,]+) tokens")


def corpus_tokens(screen: str) -> int | None:
    """The corpus's token count at this step, as the segmented view's status line gives it
    ("step k/N · T tokens"; a step the run did not count shows none)."""
    found = STEP_LINE.search(screen)
    return int(found.group(1).replace(",", "")) if found else None


def test_unigram_trains_in_the_app_and_steps_through_its_rounds(run_app, corpus_1mb) -> None:  # noqa: ANN001
    term = run_app(corpus_1mb)
    term.wait_for("ready")
    term.click_text(" model     BPE", 12)  # the model select opens
    term.wait_for("Unigram")
    term.click_text("Unigram", 1)
    # the menu closed (▼, not ▲) before the vocab field is clicked: a click that lands on the open
    # menu reopens it (seen with both cores busy)
    term.wait_for(lambda s: re.search(r"model\s+Unigram\s+▼", s) is not None and "Dismiss menu" not in s)
    set_vocab(term, 2000)
    term.press("ctrl+t")
    screen = term.wait_for(lambda s: re.search(r"done: [\d,]+ steps", s) is not None, 240)
    total = int(re.search(r"done: ([\d,]+) steps", screen).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert total >= 5, screen
    term.press("f2", "g")
    wait_step(term, 0)
    term.press("n")
    screen = wait_step(term, 1)
    term.wait_for("step 1: seeds")
    seeds_tokens = corpus_tokens(term.wait_for(STEP_LINE.search))
    term.press("n")
    term.wait_for("step 2: EM round 1, iteration 1")
    term.wait_for("log-likelihood")
    prunes, counts = 0, []
    for k in range(3, total):
        term.press("n")
        screen = term.wait_for(lambda s, k=k: f"step {k}:" in s and f"step {k}/" in s)
        if re.search(rf"step {k}: pruning round \d+: [\d,]+ → [\d,]+ pieces", screen):
            prunes += 1
            term.wait_for("removed (loss):")
        counts.append(corpus_tokens(screen))
    assert prunes >= 1, "pruning rounds are reached by stepping"
    later = [c for c in counts if c is not None]
    assert seeds_tokens is not None and later and later[-1] > seeds_tokens, "a pruned vocabulary takes more tokens"
    term.press("G")
    screen = wait_step(term, total)
    term.wait_for(f"step {total}: the final vocabulary")
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0
    assert term.group_processes() == []
