"""The Train form's fields for the training options the engine and the CLI have (``--unk-token``,
``--end-of-word``, ``--max-token-length``): each reaches the trainer, and the app trains the same
merges as the CLI for the same settings."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Input, Select

from bpe_cli.main import main as cli_main
from tests.tui.pilot import SMALL, set_input, shown, train_to_end
from tui.app import ExplorerApp
from tui.train.step_table import StepTable

CORPUS = "low lower lowest newer wider wide widest\nthe cat sat on the mat, the end.\n" * 4


async def choose(pilot, app: ExplorerApp, selector: str, value: str) -> None:  # noqa: ANN001
    app.query_one(selector, Select).value = value
    await pilot.pause()


def cli_merges(tmp_path: Path, corpus: str, *options: str) -> list[str]:
    """The merges ``bpe-explorer train`` writes for ``corpus`` with ``options`` (the oracle)."""
    tmp_path.mkdir(exist_ok=True)
    src = tmp_path / "corpus.txt"
    src.write_text(corpus, encoding="utf-8", newline="")
    out = tmp_path / "out"
    assert cli_main(["train", str(src), "--output", str(out), *options]) == 0
    if not (out / "merges.txt").exists():  # merges with spaces: only tokenizer.json holds them
        merges = json.loads((out / "tokenizer.json").read_text(encoding="utf-8"))["model"]["merges"]
        return [m if isinstance(m, str) else " ".join(m) for m in merges]
    lines = (out / "merges.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#version")]


def app_merges(app: ExplorerApp) -> list[str]:
    """The run's merges as tokenizer.json writes them."""
    assert app.train_pane.tokenizer is not None and not app.train_pane.training
    return [f"{step.left} {step.right}" for step in app.train_pane.step_log]


async def test_unk_token_field_trains_a_tokenizer_with_an_unknown_piece(tmp_path: Path) -> None:
    app = ExplorerApp(CORPUS)
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#unk", "<unk>")
        assert "for character-level training" in shown(app, "#unk-error"), "byte-level has no unknown symbols"
        await choose(pilot, app, "#level", "char")
        assert shown(app, "#unk-error") == ""
        await set_input(pilot, app, "#vocab", "60")
        await train_to_end(app, pilot)
        tokenizer = app.train_pane.tokenizer
        assert tokenizer is not None and "done:" in shown(app, "#progress-status")
        ids = tokenizer.encode("low 어")
        assert tokenizer.token_str(ids[-1]) == "<unk>", "어 is not in the corpus: it is the unknown piece"
        expected = cli_merges(tmp_path, CORPUS, "--vocab-size", "60", "--char-level", "--unk-token", "<unk>")
        assert app_merges(app) == expected


async def test_end_of_word_field_trains_the_separate_convention(tmp_path: Path) -> None:
    app = ExplorerApp(CORPUS)
    async with app.run_test(size=(120, 36)) as pilot:
        assert app.query_one("#eow", Select).disabled, "only the end-of-word pre-tokenizer has a </w> convention"
        await choose(pilot, app, "#level", "char")
        await choose(pilot, app, "#pretok", "end-of-word")
        assert not app.query_one("#eow", Select).disabled
        await choose(pilot, app, "#eow", "separate")
        await set_input(pilot, app, "#vocab", "50")
        await train_to_end(app, pilot)
        assert app.train_pane.tokenizer is not None
        assert app.train_pane.tokenizer.pre_tokenizer.end_of_word == "separate"  # type: ignore[attr-defined]
        expected = cli_merges(tmp_path, CORPUS, "--vocab-size", "50", "--end-of-word", "separate")
        assert app_merges(app) == expected
        assert any(m.endswith(" </w>") for m in app_merges(app)), "</w> is a symbol of its own that merges"
        app.train_pane.seek(0)
        await pilot.pause()
        assert app.train_pane.stepper is not None and app.train_pane.stepper.word_symbols(0)[-1] == "</w>", "step 0: l o w </w>"


async def test_max_token_length_field_limits_tokens_and_zero_lifts_the_limit(tmp_path: Path) -> None:
    corpus = "aaaaaaaaaaaaaaaaaaaaaaaa " * 30 + SMALL
    app = ExplorerApp(corpus)
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "280")
        await set_input(pilot, app, "#maxlen", "x")
        assert "whole number" in shown(app, "#maxlen-error")
        await set_input(pilot, app, "#maxlen", "3")
        await train_to_end(app, pilot)
        longest = max(len(app.train_pane.tokenizer.token_bytes(i)) for i in range(app.train_pane.tokenizer.vocab_size))  # type: ignore[union-attr]
        assert longest < 3
        limited = app_merges(app)
        expected = cli_merges(tmp_path / "a", corpus, "--vocab-size", "280", "--max-token-length", "3")
        assert limited == expected
        await set_input(pilot, app, "#maxlen", "0")
        await train_to_end(app, pilot)
        longest = max(len(app.train_pane.tokenizer.token_bytes(i)) for i in range(app.train_pane.tokenizer.vocab_size))  # type: ignore[union-attr]
        assert longest > 16, "0 = no limit: the run of a's grows past the default 16"
        expected = cli_merges(tmp_path / "b", corpus, "--vocab-size", "280", "--max-token-length", "0")
        assert app_merges(app) == expected


async def test_wordpiece_disables_the_bpe_only_fields_and_takes_the_unk_token() -> None:
    app = ExplorerApp(CORPUS)
    async with app.run_test(size=(120, 36)) as pilot:
        await choose(pilot, app, "#model", "wordpiece")
        assert app.query_one("#maxlen", Input).disabled and app.query_one("#eow", Select).disabled
        await set_input(pilot, app, "#unk", "<unk>")
        await set_input(pilot, app, "#vocab", "80")
        await train_to_end(app, pilot)
        assert app.train_pane.tokenizer is not None
        trained = app.train_pane.tokenizer
        ids = trained.encode("어", add_special_tokens=False)  # without the [CLS]/[SEP] it adds by default
        assert [trained.token_str(i) for i in ids] == ["<unk>"]


async def test_the_vocab_field_knows_the_alphabet_and_a_refused_run_keeps_the_last(alice_text: str) -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "290")
        await train_to_end(app, pilot)
        kept = app.train_pane.stepper.available
        await set_input(pilot, app, "#vocab", "-5")
        assert "between 1 and 1,000,000" in shown(app, "#vocab-error")  # the config's own rule, at its field
        app.query_one("#level", Select).value = "char"
        await pilot.pause(0.5)
        distinct = len(set(SMALL))
        await set_input(pilot, app, "#vocab", str(distinct - 3))
        await train_to_end(app, pilot)
        assert f"above the alphabet ({distinct:,} symbols)" in shown(app, "#vocab-error")
        app.query_one("#pretok", Select).value = "end-of-word"  # its alphabet is larger than the characters
        await set_input(pilot, app, "#vocab", str(distinct + 1))
        await train_to_end(app, pilot)
        assert "nothing to merge" in shown(app, "#vocab-error")
        assert app.train_pane.stepper is not None and app.train_pane.stepper.available == kept, "the last good run stays"
        assert app.query_one(StepTable).row_count == kept + 1
