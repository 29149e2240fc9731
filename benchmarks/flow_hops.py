"""How many files a user's action crosses: the two flows docs/design.md draws, counted in the running app.

A *file-hop* is a call from a function in one of our files into a function in another: each distinct
(caller file, callee file) pair counts once, the caller being the nearest of our frames on the
stack (so a message Textual delivers counts as a hop from the file that posted it... to the file that
handles it only when the post is on the stack; a worker thread's or a timer's first frame counts as a
hop in from outside). The files are those of ``bpe_engine``, ``tui``, ``bpe_cli`` and ``bpe_styles``
that run while the action is handled. The figures say how far a reader must follow one action
through the code; they are a structural count, not a timing.

Two counts are printed: every hop, and the flow's own hops -- those left when calls into the
bottom layer (``bpe_engine/core/`` and the engine's leaf modules: values and helpers every stage
uses, like a file's ``import``) and into the tokenizers' own code (``bpe/``, ``wordpiece/``,
``sentencepiece/``, ``hf/``, the baselines: what one row's tokenizer does to encode) are left out.
The goals are for the flow's own hops.

1. Compare keystroke: one character typed into Compare's text with its default rows, until the
   pane has drawn the new comparison.
2. ctrl+t: from the key on the Train tab (the sample corpus counted) until the first steps are in
   the step list.

    python benchmarks/flow_hops.py [--list]

Goals (issue 26): a Compare keystroke <= 22 file-hops, ctrl+t to the first steps <= 30.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OURS = tuple(str(ROOT / p) + "/" for p in ("bpe_engine", "tui", "bpe_cli", "bpe_styles"))
BOTTOM = (
    *(str(ROOT / "bpe_engine" / p) + "/" for p in ("core", "bpe", "wordpiece", "sentencepiece", "hf")),
    *(
        str(ROOT / "bpe_engine" / f"{m}.py")
        for m in ("types", "errors", "choices", "display", "atomic", "token_ids", "memo", "regex_limits",
                  "pretokenizers", "special_text", "memory_budget", "unicode_scripts")
    ),
    str(ROOT / "bpe_engine" / "compare" / "baselines.py"),
)
"""Callees left out of the flow's own hops (see the module docstring)."""


class Hops:
    """Records, while on, every call into one of our files from another (see the module docstring)."""

    def __init__(self) -> None:
        self.edges: set[tuple[str, str]] = set()
        self.files: set[str] = set()
        self._lock = threading.Lock()

    def _profile(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        callee = frame.f_code.co_filename
        if not callee.startswith(OURS):
            return
        caller = frame.f_back
        while caller is not None and not caller.f_code.co_filename.startswith(OURS):
            caller = caller.f_back
        source = caller.f_code.co_filename if caller is not None else "(entry)"
        with self._lock:
            self.files.add(callee)
            if source != callee:
                self.edges.add((source, callee))

    def __enter__(self) -> Hops:
        threading.setprofile(self._profile)
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *_exc: object) -> None:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]  # None turns it off, as for sys.setprofile

    def report(self, title: str, goal: int, listing: bool) -> None:
        own = {(s, t) for s, t in self.edges if not t.startswith(BOTTOM) and not s.startswith(BOTTOM)}
        own_files = {f for edge in own for f in edge if f != "(entry)"}
        print(f"{title}: {len(own)} file-hops of its own over {len(own_files)} files (goal <= {goal}); "
              f"{len(self.edges)} with the bottom layer and the tokenizers, over {len(self.files)} files")
        if listing:
            for source, target in sorted(self.edges):
                mark = " " if (source, target) in own else "."
                print(f"  {mark} {_short(source)} -> {_short(target)}")


def _short(path: str) -> str:
    return path if path == "(entry)" else str(Path(path).relative_to(ROOT))


async def _until(pilot: Any, condition: Callable[[], bool]) -> None:
    for _ in range(20_000):
        if condition():
            return
        await pilot.pause(0.01)
    raise SystemExit("the app never got there")


async def compare_keystroke(listing: bool) -> None:
    from tui.app import ExplorerApp
    from tui.compare import ComparePane
    from tui.launch import sample_corpus
    from tui.widgets.safe_text import SafeTextArea

    app = ExplorerApp(sample_corpus(), source="sample corpus")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f4")
        pane = app.query_one(ComparePane)
        await _until(pilot, lambda: pane.result is not None and not app.workers)
        app.query_one("#compare-text", SafeTextArea).focus()
        await pilot.pause()
        drawn = pane.result
        with Hops() as hops:
            await pilot.press("x")
            await _until(pilot, lambda: pane.result is not drawn and not app.workers)
            await pilot.pause()
    hops.report("Compare keystroke", 22, listing)


async def first_steps(listing: bool) -> None:
    from tui.app import ExplorerApp
    from tui.launch import sample_corpus

    app = ExplorerApp(sample_corpus(), source="sample corpus")
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: app.train_pane.corpus_cut is not None and not app.workers)
        with Hops() as hops:
            await pilot.press("ctrl+t")
            await _until(pilot, lambda: app.train_pane.state.step_total > 0)
            await pilot.pause()
        await _until(pilot, lambda: not app.train_pane.training)
    hops.report("ctrl+t to the first steps", 30, listing)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print every hop (caller file -> callee file)")
    args = parser.parse_args()
    asyncio.run(compare_keystroke(args.list))
    asyncio.run(first_steps(args.list))


if __name__ == "__main__":
    main()
