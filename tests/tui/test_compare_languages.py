"""Compare's Languages view: a bar per language for the current row, premium or bytes per token,
sorted and searchable, the highlighted language's article beside English's as the row cuts it."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, OptionList

from bpe_engine.metrics.languages import LanguageMeter, find
from bpe_engine.registry import load_tokenizer
from tests.tui.pilot import CompareHost, settle_panes
from tui.compare import ComparePane
from tui.compare.languages_view import LanguagesView
from tui.widgets.token_text import TokenText

ROWS = ("gpt2", "o200k_base", "bert-base-uncased")


async def languages(app: CompareHost, pilot: Any) -> LanguagesView:
    await settle_panes(pilot)
    app.query_one(ComparePane).show_view("compare-languages")
    await settle_panes(pilot)
    return app.query_one(LanguagesView)


def bar_lines(view: LanguagesView) -> list[str]:
    bars = view.query_one("#lang-bars", OptionList)
    return [str(bars.get_option_at_index(i).prompt) for i in range(bars.option_count)]


async def test_bars_are_the_current_rows_premiums_sorted_and_searchable() -> None:
    app = CompareHost("hello", ROWS)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await languages(app, pilot)
        assert view.label == "gpt2" and len(view.table) == 532
        premiums = [f.premium for f in view.shown]
        assert view.shown[0].script == "Latn" and len(bar_lines(view)) == 532
        kor = next(f for f in view.shown if f.code == "kor")
        expected = LanguageMeter(load_tokenizer("gpt2"), find("eng")[0]).measure(find("kor")[0])
        assert kor.premium == expected.premium and kor.tokens == expected.tokens
        assert any(line.startswith("kor ") and f"×{expected.premium:.2f}" in line for line in bar_lines(view))
        view.query_one("#lang-search", Input).value = "hind"
        await settle_panes(pilot)
        assert "hin" in [f.code for f in view.shown] and all("hind" in f.name.lower() for f in view.shown)
        view.query_one("#lang-search", Input).value = "kor"
        await settle_panes(pilot)
        assert "kor" in [f.code for f in view.shown]
        latin = [p for f, p in zip(view.table, premiums, strict=True) if f.script == "Latn"]
        assert latin == sorted(latin)  # type: ignore[type-var]  # each script's languages ascending


async def test_m_switches_to_bytes_per_token_fairest_first() -> None:
    app = CompareHost("hello", ROWS)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await languages(app, pilot)
        view.focus_list()
        await pilot.press("m")
        await settle_panes(pilot)
        values = [f.bytes_per_token for f in view.shown]
        assert view.metric == "bytes_per_token" and values == sorted(values, reverse=True)
        assert "bytes per token" in str(view.query_one("#lang-title").render())


async def test_the_article_is_shown_in_english_and_the_language_as_the_row_cuts_it() -> None:
    app = CompareHost("hello", ROWS)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await languages(app, pilot)
        view.query_one("#lang-search", Input).value = "korean"
        await settle_panes(pilot)
        english, other = view.query_one("#lang-english", TokenText), view.query_one("#lang-other", TokenText)
        gpt2 = load_tokenizer("gpt2")
        assert english._encoding is not None and other._encoding is not None
        assert other._encoding.ids == tuple(gpt2.encode(find("kor")[0].article(1)))
        assert "".join(english.lines_text()).startswith("Article 1")
        view.focus_list()
        await pilot.press("n")
        await settle_panes(pilot)
        assert other._encoding.text == find("kor")[0].article(2)


async def test_another_row_is_measured_and_bert_is_flagged() -> None:
    app = CompareHost("hello", ROWS)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await languages(app, pilot)
        pane = app.query_one(ComparePane)
        pane._set_current(2)
        await settle_panes(pilot)
        assert view.label == "bert wordpiece"
        tha = next(f for f in view.table if f.code == "tha")
        assert tha.unreliable and any(line.startswith("tha ") and "!" in line for line in bar_lines(view))
        assert "flagged !" in str(view.query_one("#lang-title").render())


async def test_the_view_fits_80x24_and_v_reaches_it() -> None:
    app = CompareHost("hello", ("gpt2",))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        for _ in range(5):
            pane.action_cycle_view(1)
        await settle_panes(pilot)
        assert pane.view == "compare-languages"
        view = app.query_one(LanguagesView)
        assert len(view.shown) == 532 and all(len(line) <= 80 for line in bar_lines(view))
        assert view.query_one("#lang-bars", OptionList).size.height >= 3


async def test_the_curve_shows_the_corpus_languages_premium_falling_with_the_merges() -> None:
    from bpe_engine.metrics.languages.premium_curve import premium_curve
    from tests.tui.test_compare_metrics import trained_state
    from tui.compare.premium_line import PremiumLine

    corpus = (find("eng")[0].text + "\n" + find("kor")[0].text + "\n") * 2
    state = trained_state(corpus, 600)
    app = CompareHost("hello", ("ours",), tokenizer=state.tokenizer, state=state)
    async with app.run_test(size=(150, 45)) as pilot:
        await settle_panes(pilot)
        app.query_one(ComparePane).show_view("compare-curve")
        await settle_panes(pilot)
        line = app.query_one(PremiumLine)
        (name, curve), = line._curves
        assert name == "Korean"
        n = state.merge_count
        expected = premium_curve(state.tokenizer_at, n, find("kor")[0], points=16)
        assert [(p.k, p.premium) for p in curve] == [(p.k, p.premium) for p in expected]
        assert curve[0].k == 0 and curve[-1].k == n and curve[-1].premium < curve[0].premium  # type: ignore[operator]
        shown = str(line.render())
        assert shown.startswith("Korean premium (UDHR)") and f"×{curve[-1].premium:.2f} at k={n}" in shown
