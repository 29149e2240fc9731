"""The explorer in a real terminal: Compare rows picked by typing into the picker (twelve
real-world tokenizers side by side with the baselines and ours), a real mouse click lighting one
token's characters in every row, ``c`` putting the ids on the clipboard through OSC 52, and both
tabs at 80x24.

The built-ins were fetched before the suite (``bpe-explorer models fetch``); the app's HOME is a
temporary directory, so its cache directory is linked to that one (no network here).
"""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

PICKED = ("p50k", "mistral-v1", "mistral-v3", "tekken", "claude-legacy", "whisper", "sp-unigram-en", "sp-unigram-ja")
ROWS = ("characters", "words", "ours", "bert wordpiece", "gpt2", "cl100k_base", "o200k_base ★", "p50k_base",
        "mistral-v1", "mistral-v3", "tekken", "claude-legacy", "whisper", "sp-unigram-en", "sp-unigram-ja")  # fmt: skip
OSC52 = re.compile(rb"\x1b\]52;c;([A-Za-z0-9+/=]+)(?:\x07|\x1b\\)")


def share_model_cache(workdir: Path, builtin_model_path: Any) -> None:
    """The app (HOME = workdir/home) sees the suite's fetched built-ins."""
    from bpe_engine.catalog import cache_root

    for name in ("mistral-v1", "mistral-v3", "tekken", "claude-legacy", "whisper", "sp-unigram-en", "sp-unigram-ja"):
        builtin_model_path(name)
    cache = workdir / "home" / ".cache"
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "bpe-explorer").symlink_to(cache_root(), target_is_directory=True)


# ready_for_keys: on main at 4c1b7af a tab key pressed between "ready" and the corpus facts
# ("... distinct bytes", counted after the first frame) is lost about one time in two (seen in tmux
# at 80x24: f3 right after "ready" left Train up 4 times of 4); these scenarios are about the
# explorer, so they wait for the facts. Reported to the lead.


def row_line(screen: str, label: str) -> tuple[int, str]:
    """(y, line) of the first aligned row whose head is ``label``."""
    for y, line in enumerate(screen.split("\n")):
        if re.match(rf"[│ ]?{re.escape(label)}\s+\d", line):
            return y, line
    raise AssertionError(f"no row {label!r} on the screen:\n{screen}")


def test_fifteen_rows_from_the_picker_a_lit_token_and_copied_ids(run_app, workdir, builtin_model_path) -> None:  # noqa: ANN001
    share_model_cache(workdir, builtin_model_path)
    term = run_app()
    term.wait_for("distinct bytes")  # see ready_for_keys
    term.press("f4")
    term.wait_for("disputed boundaries", 30)
    term.click_text("add a row", 2)
    term.wait_for(lambda s: "Rows to compare" in s and " shown · " in s, 30)  # the catalogue was read
    for chosen, name in enumerate(PICKED, start=8):
        term.type(name)
        term.press("enter")  # enter in the search box takes the first match
        term.wait_for(f"{chosen} rows chosen", 10)
    term.press("esc")
    term.wait_for(lambda s: all(re.search(rf"{re.escape(r)}\s+\d", s) for r in ROWS if r != "ours"), 90)

    screen = term.screen_text()
    y, line = row_line(screen, "o200k_base ★")
    x = line.index("│", 1) + 1  # the first cell of the row's first token ("The")
    term.click(x, y)
    # the info line's parts may come in two frames on a busy machine: wait for all of them
    screen = term.wait_for(lambda s: "o200k_base token 1/" in s and "same characters:" in s, 10)
    assert "same characters:" in screen and "characters 3" in screen  # "The": 3 characters, 1 token here
    mark = term.mark
    term.press("c")
    term.wait_for("Copied", 10)
    copied = OSC52.search(term.raw_since(mark))
    assert copied is not None, "the ids never reached the terminal's clipboard"
    ids = base64.b64decode(copied.group(1)).decode()
    assert re.fullmatch(r"\[\d+(, \d+)*\]", ids) and ids.count(",") == 32  # o200k: 33 tokens

    term.press("v")  # Stats: every row, its cost against the baseline row
    screen = term.wait_for(lambda s: "vs base" in s and s.count("×") >= 12, 10)  # 13 rows against o200k
    assert "baseline" in screen
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0


def test_compare_and_inspect_at_80x24(run_app) -> None:  # noqa: ANN001
    term = run_app(size=(80, 24))
    term.wait_for("distinct bytes")  # see ready_for_keys
    term.press("f4")
    screen = term.wait_for(lambda s: "o200k_base ★" in s and "disputed" in s, 30)
    for label in ("characters", "words", "gpt2", "cl100k_base", "o200k_base ★"):
        row_line(screen, label)  # every default row is on screen with its count
    term.press("f3")
    screen = term.wait_for("token 1 of", 30)
    assert "why this token" not in screen  # one pane below the chips at a time
    term.click_text("Hello Ġ", 1)  # the first chip: selects it, the keyboard goes to the chips
    term.press("v", "v")
    # the pane's title comes before the merge tree its worker makes: wait for the tree too
    screen = term.wait_for(lambda s: "why this token" in s and re.search(r"  merge \d", s), 10)
    assert re.search(r"  merge \d", screen) and "token 1 of" not in screen
    # Compare's Stats last: a token clicked in Compare before Inspect's chips left "why this token" at "…"
    term.press("f4")
    screen = term.wait_for(lambda s: "o200k_base ★" in s and "disputed" in s, 10)
    y, line = row_line(screen, "gpt2")
    term.click(line.index("│", 1) + 1, y)  # a token of gpt2's row: the keyboard goes to the rows
    term.press("v")  # Stats: the short headers, Rényi efficiency among them, every column whole
    screen = term.wait_for(lambda s: "Rény" in s and "vs ★" in s, 10)
    header = next(line for line in screen.split("\n") if "vs ★" in line)
    assert header.rstrip().endswith("UNK") and "Shan" not in header, header  # Shannon is what 80 columns leave out
    term.press("ctrl+q")
    assert term.wait_exit(10) == 0
