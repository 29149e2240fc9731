"""Prune from the audit screen: how many ids to keep, what would go and what the corpus pays, then the
files written -- and a WordPiece tokenizer is refused with the reason."""

from __future__ import annotations

import json
import os
from pathlib import Path

from textual.widgets import Input

from bpe_engine.audit.vocabulary import audit_vocabulary
from bpe_engine.registry import load_tokenizer
from tests.tui.pilot import make_app, settle_panes
from tests.tui.test_audit_screen import inspect_with
from tui.audit import AuditScreen
from tui.commands import open_audit
from tui.audit.prune_screen import PruneScreen

def preview_text(screen: PruneScreen) -> str:
    content = screen.query_one("#prune-preview").content  # type: ignore[attr-defined]
    return content.plain


CORPUS = "the cat sat on the mat, and the dog sat on the log. " * 20


async def test_pruning_gpt2_from_the_audit_previews_then_writes(tmp_path: Path) -> None:
    app = make_app(CORPUS)
    async with app.run_test(size=(140, 44)) as pilot:
        await inspect_with(pilot, "gpt2")
        open_audit(app)
        await settle_panes(pilot)
        assert isinstance(app.screen, AuditScreen)
        await pilot.press("p")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PruneScreen)
        screen.query_one("#prune-to", Input).value = "3000"
        out = tmp_path / "gpt2-3k"
        screen.query_one("#prune-out", Input).value = str(out)
        screen.query_one("#prune-out", Input).focus()
        await pilot.press("enter")  # nothing is written before a preview
        await pilot.pause()
        assert "see what goes before writing" in preview_text(screen) and not out.exists()
        screen.query_one("#prune-to", Input).focus()
        await pilot.press("enter")
        await settle_panes(pilot)
        text = preview_text(screen)
        assert "removes 47,257 tokens, keeps 3,000 ids" in text
        assert "the corpus pays: " in text and "first to go: " in text
        screen.query_one("#prune-out", Input).focus()
        await pilot.press("enter")
        await settle_panes(pilot)
        assert not isinstance(app.screen, PruneScreen)
        pruned = load_tokenizer(out)
        assert pruned.vocab_size == 3000
        assert sum(len(v) for k, v in audit_vocabulary(pruned).ids.items() if k.startswith("unreachable")) == 0
        gpt2, line = load_tokenizer("gpt2"), "the cat sat on the mat"
        # the corpus's tokens are the most used, so they stay (under new, compacted ids)
        assert [pruned.token_bytes(i) for i in pruned.encode(line)] == [gpt2.token_bytes(i) for i in gpt2.encode(line)]
        assert json.loads((out / "surgery.json").read_text(encoding="utf-8"))["operation"] == "prune"


async def test_a_wordpiece_tokenizer_cannot_be_pruned_and_says_why() -> None:
    app = make_app(CORPUS)
    async with app.run_test(size=(140, 44)) as pilot:
        await inspect_with(pilot, "bert-base-uncased")
        open_audit(app)
        await settle_panes(pilot)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, AuditScreen)
        assert any("WordPiece tokenizer, not a BPE" in n.message for n in app._notifications)  # noqa: SLF001
    assert os.getcwd()
