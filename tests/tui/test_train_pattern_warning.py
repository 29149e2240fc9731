"""The Train form says when the corpus holds a script the chosen pre-tokenizer cuts apart: Hindi under
the gpt2 regex (vowel signs cut off their letters) draws the warning with an example, o200k's regex
clears it, and an English corpus never shows it."""

from __future__ import annotations

from bpe_engine.metrics.languages import find
from tests.tui.pilot import make_app, set_select, settle, shown


async def warning_after(app, pilot) -> str:  # noqa: ANN001
    for _ in range(40):
        await settle(app, pilot)
        if "counting" not in shown(app, "#corpus-facts"):
            break
    return shown(app, "#pattern-warning")


async def test_hindi_under_gpt2_is_flagged_and_o200k_clears_it(alice_text: str) -> None:
    hindi = "\n".join(text for _, text in find("hin")[0].parts)
    app = make_app(alice_text[:5_000] + "\n" + hindi)
    async with app.run_test(size=(140, 44)) as pilot:
        text = await warning_after(app, pilot)
        assert "the gpt2 pre-tokenizer cuts vowel signs and other marks off their letters in Devanagari" in text
        assert "प ◌् रस ◌्" in text and "o200k" in text
        await set_select(pilot, app, "#pretok", "o200k")
        assert await warning_after(app, pilot) == ""


async def test_english_draws_no_warning(alice_text: str) -> None:
    app = make_app(alice_text[:20_000])
    async with app.run_test(size=(140, 44)) as pilot:
        assert await warning_after(app, pilot) == ""


async def test_the_multilingual_preset_sets_o200k_and_unigrams_coverage_and_byte_fallback(alice_text: str) -> None:
    from textual.widgets import Select

    from tests.tui.pilot import set_select
    from tui.train.settings_form import SettingsForm

    hindi = "\n".join(text for _, text in find("hin")[0].parts)
    app = make_app(hindi)
    async with app.run_test(size=(140, 44)) as pilot:
        assert "Devanagari" in await warning_after(app, pilot)
        await set_select(pilot, app, "#preset", "multilingual")
        assert app.query_one("#pretok", Select).value == "o200k"
        assert await warning_after(app, pilot) == ""
        await set_select(pilot, app, "#model", "unigram")
        config = app.query_one(SettingsForm).config()
        assert config is not None and config.character_coverage == 1.0 and config.byte_fallback is True
