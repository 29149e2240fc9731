"""The app and the CLI train the same model from the same corpus and settings -- each of the three
algorithms, with each one's defaults in the form -- and a tokenizer loaded into the app puts its own
settings in the form."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.registry import load_tokenizer
from tests.tui.pilot import make_app, set_input, set_select, settle, train_to_end

CORPUS = (
    "The quick brown fox jumps over the lazy dog. Foxes hunt at dusk and dawn.\n"
    "대한민국은 민주공화국이다. 모든 국민은 법 앞에 평등하다.\n"
    "Unbelievable conversations about hugging, puns and buns.\n"
) * 40


def vocabulary(directory: Path) -> list[str]:
    """The trained vocabulary in id order, from the files each model writes."""
    tok = load_tokenizer(str(directory))
    return [tok.token_str(i) for i in range(tok.vocab_size)]


@pytest.mark.parametrize(("model", "vocab"), [("bpe", 300), ("wordpiece", 200), ("unigram", 60)])
async def test_the_app_trains_what_the_cli_trains(model: str, vocab: int, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    cli_out = tmp_path / "cli"
    assert main(["train", str(corpus), "--model", model, "--vocab-size", str(vocab), "-o", str(cli_out)]) == 0

    app = make_app(CORPUS)
    async with app.run_test(size=(140, 44)) as pilot:
        await set_select(pilot, app, "#model", model)
        await set_input(pilot, app, "#vocab", str(vocab))
        await train_to_end(app, pilot)
        app_out = tmp_path / "app"
        app.files._save_to(str(app_out))  # noqa: SLF001 - what the save dialog calls back
        await settle(app, pilot)
    assert vocabulary(app_out) == vocabulary(cli_out)
    assert load_tokenizer(str(app_out)).name == "app", "a save is named after its directory, as the CLI names it"


async def test_a_loaded_tokenizer_puts_its_settings_in_the_form(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    saved = tmp_path / "char-words"
    args = ["train", str(corpus), "--vocab-size", "260", "--char-level", "--pre-tokenizer", "whitespace", "-o", str(saved)]
    assert main(args) == 0
    app = make_app(CORPUS)
    async with app.run_test(size=(140, 44)) as pilot:
        await set_input(pilot, app, "#vocab", "999")
        app.train_pane.explore(load_tokenizer(str(saved)), "char-words")
        await settle(app, pilot)
        form = {name: app.query_one(f"#{name}").value for name in ("model", "level", "vocab", "pretok")}
        trained = load_tokenizer(str(saved)).vocab_size  # the corpus ran out of pairs before 260
        assert form == {"model": "bpe", "level": "char", "vocab": str(trained), "pretok": "whitespace"}


@pytest.mark.parametrize(
    ("model", "kind", "choose"),
    [("unigram", "a Unigram model", "choose Unigram"), ("wordpiece", "a WordPiece vocabulary", "choose WordPiece")],
)
async def test_a_loaded_model_without_merges_says_what_can_be_done_with_it(
    model: str, kind: str, choose: str, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    saved = tmp_path / "saved"
    assert main(["train", str(corpus), "--model", model, "--vocab-size", "60", "-o", str(saved)]) == 0
    app = make_app(CORPUS)
    async with app.run_test(size=(140, 44)) as pilot:
        app.train_pane.explore(load_tokenizer(str(saved)), "saved")
        await settle(app, pilot)
        message = list(app._notifications)[-1].message  # noqa: SLF001 - what the toast shows
        assert message.startswith(f"saved is {kind}:") and "Inspect (f3, m)" in message and choose in message
        assert app.train_pane.tokenizer is None  # nothing replaced what the Train tab shows
