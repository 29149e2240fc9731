"""Files in the app: open a corpus (ctrl+o), load a tokenizer to explore (ctrl+l), save the trained
one (ctrl+s). A corpus is read as the command line reads it; a loaded tokenizer follows a newly
opened corpus and its name leaves the header once a run replaces it; saving checks its target at
once and waits for a running run."""

from __future__ import annotations

import asyncio

from tests.tui.pilot import SMALL, runner, set_input, settle, shown, train_to_end
from tui.app import ExplorerApp
from tui.train.corpus_pane import CorpusPane
from tui.train.step_table import StepTable


async def test_opening_a_corpus_reads_the_same_text_as_the_command_line(tmp_path) -> None:  # noqa: ANN001
    from tui.launch import build_app

    path = tmp_path / "crlf.txt"
    path.write_bytes(b"one line\r\nanother line\r\n\xef\xbb\xbfbom\r\n")
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        app.files._read(str(path))
        await settle(app, pilot)
        assert app.query_one(CorpusPane).text == path.read_bytes().decode("utf-8")
        assert app.query_one(CorpusPane).text == build_app([str(path)]).corpus  # one reading path
        binary = tmp_path / "x.bin"
        binary.write_bytes(b"\x89PNG\x00\x01")
        app.files._read(str(binary))
        await settle(app, pilot)
        message = list(app._notifications)[-1].message
        assert "looks like a binary file" in message and "bpe-explorer train" in message


async def test_a_loaded_tokenizer_is_explored_on_a_newly_opened_corpus(tmp_path) -> None:  # noqa: ANN001
    from bpe_engine.training.bpe import BpeTrainerConfig, train

    tok = train([SMALL * 3], BpeTrainerConfig(vocab_size=270)).tokenizer
    other = tmp_path / "other.txt"
    other.write_text("completely different words here\n" * 5, encoding="utf-8")
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        app.train_pane.explore(tok, "hand")
        await settle(app, pilot)
        app.files._read(str(other))
        await settle(app, pilot)
        await settle(app, pilot)
        assert app.train_pane.view is not None and app.train_pane.view.text == other.read_text(encoding="utf-8")
        await pilot.press("G")
        assert "other.txt" in shown(app, "#step-status")
        assert "completely" in shown(app, "#segmented-text")


async def test_the_header_drops_a_loaded_tokenizers_name_once_a_run_replaces_it() -> None:
    """Seen by hand in tmux: ctrl+l a saved tokenizer, ctrl+o another corpus, ctrl+t -- the header
    still read "bpe-explorer — /tmp/hand/tok8" over merges trained on the new corpus."""
    from bpe_engine.training.bpe import BpeTrainerConfig, train

    tok = train([SMALL * 3], BpeTrainerConfig(vocab_size=270)).tokenizer
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        app.train_pane.explore(tok, "hand")
        await settle(app, pilot)
        assert app.sub_title == "hand"
        await train_to_end(app, pilot)
        assert app.sub_title == ""


async def test_save_then_load_the_tokenizer_to_explore_it(tmp_path) -> None:  # noqa: ANN001
    from bpe_engine.registry import load_tokenizer

    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "280")
        await train_to_end(app, pilot)
        out = tmp_path / "saved"
        app.files._save_to(str(out))  # saving runs in a worker: the UI thread never waits for the disk
        await settle(app, pilot)
        assert (out / "merges.txt").exists() and (out / "vocab.json").exists()
        app.train_pane.explore(load_tokenizer(str(out)), "saved")
        await settle(app, pilot)
        await pilot.pause(0.5)  # the merge list's flush timer
        assert app.train_pane.stepper is not None and app.train_pane.stepper.available == 24
        assert app.query_one(StepTable).row_count == 25
        assert "exploring saved: 24 merges" in shown(app, "#progress-status")
        await pilot.press("G")
        assert app.train_pane.current_step == 24
        assert app.train_pane.state.tokenizer_at() is not None


async def test_save_checks_the_target_at_once_and_waits_for_a_running_run(tmp_path, alice_text: str) -> None:  # noqa: ANN001
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    app = ExplorerApp(alice_text[:30000], runner=runner(throttle=0.01))
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "700")
        app.action_train()
        while app.train_pane.stepper is None or app.train_pane.stepper.available < 3:
            await asyncio.sleep(0.05)
        app.files._save_to(str(blocker / "sub"))  # not writable: said at once, while it trains
        await pilot.pause()
        assert "is a file, not a directory" in list(app._notifications)[-1].message
        target = tmp_path / "out"
        app.files._save_to(str(target))
        await pilot.pause()
        assert "when training finishes" in list(app._notifications)[-1].message
        while app.train_pane.training:
            await asyncio.sleep(0.05)
        await settle(app, pilot)
        assert (target / "merges.txt").exists()
