"""The metrics in the app: Compare's Stats view shows each row's Rényi and Shannon efficiency (the
subset that fits the terminal), and the Curve draws the Rényi efficiency per merge step beside the
tokens per character -- each value the one ``bpe-explorer metrics`` gives for the same tokens."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import DataTable

from bpe_engine.metrics import DEFAULT_ALPHA, measure_text
from bpe_engine.pretokenizers import GPT2
from bpe_engine.registry import load_tokenizer
from tests.tui.pilot import SMALL, CompareHost, set_input, settle, settle_panes, train_to_end
from tui.app import ExplorerApp
from tui.compare import ComparePane
from tui.compare.chart import RENYI_LABEL
from tui.compare.stats_table import StatsTable
from tui.state import ExplorerState

TEXT = "The constitution protects the freedom of speech.\n대한민국은 민주공화국이다. 한국어 tokenization 👩‍👩‍👧\n"
ROWS = ("characters", "gpt2", "o200k_base")


def metric(tok: Any, text: str, name: str) -> float:
    value = measure_text(tok, text).as_dict(alpha=DEFAULT_ALPHA, ordinary=frozenset())[name]
    assert isinstance(value, float)
    return value


def table_cells(table: DataTable) -> dict[str, dict[str, str]]:  # type: ignore[type-arg]
    """``{row label: {header: cell text}}`` as the table shows them."""
    headers = [str(c.label) for c in table.columns.values()]
    out = {}
    for y in range(table.row_count):
        cells = [str(c) for c in table.get_row_at(y)]
        out[cells[0].removesuffix(" ★")] = dict(zip(headers, cells))
    return out


async def show_stats(app: CompareHost, pilot: Any) -> StatsTable:
    await settle_panes(pilot)
    app.query_one(ComparePane).show_view("compare-rows")
    await settle_panes(pilot)
    return app.query_one(StatsTable)


@pytest.mark.parametrize(("size", "renyi", "shannon"), [((140, 40), "Rényi", "Shannon"), ((100, 30), "Rény", "Shan"), ((80, 24), "Rény", None)])
async def test_the_stats_view_shows_the_efficiencies_of_metrics(size: tuple[int, int], renyi: str, shannon: str | None) -> None:
    app = CompareHost(TEXT, ROWS)
    async with app.run_test(size=size) as pilot:
        table = await show_stats(app, pilot)
        gpt2 = table_cells(table)["gpt2"]
        tok = load_tokenizer("gpt2")
        assert gpt2[renyi] == f"{metric(tok, TEXT, 'renyi_efficiency'):.2f}", gpt2
        if shannon is None:
            assert not {"Shannon", "Shan"} & set(gpt2)  # at 80 columns only Rényi fits beside the rest
        else:
            assert gpt2[shannon] == f"{metric(tok, TEXT, 'shannon_efficiency'):.2f}", gpt2
        assert {"partial", "part"} & set(gpt2) and "UNK" in gpt2
        assert table.virtual_size.width <= table.scrollable_content_region.width, (table.virtual_size, table.size)


async def test_a_long_text_at_80_columns_keeps_the_table_it_had() -> None:
    """5,000 characters make ``×1.95 (+1,173)`` cells: at 80 columns the efficiencies are what gives
    way, and they come back when the terminal is wide enough."""
    text = (TEXT * 60)[:5000]
    app = CompareHost(text, ("characters", "words", "gpt2", "cl100k_base", "o200k_base"))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await show_stats(app, pilot)
        headers = [str(c.label) for c in table.columns.values()]
        assert headers == ["row", "tok", "vs ★", "cp/t", "gr/t", "B/t", "t/w", "part", "UNK"]
        assert table.virtual_size.width <= table.scrollable_content_region.width
        await pilot.resize_terminal(100, 24)
        await settle_panes(pilot)
        assert {"Rény", "Shan"} <= {str(c.label) for c in table.columns.values()}
        assert table.virtual_size.width <= table.scrollable_content_region.width


def trained_state(corpus: str, merges: int) -> ExplorerState:
    """The state the Train tab would push after a run on ``corpus`` (its stepper's counts included)."""
    from bpe_engine.explore.stepper import Stepper
    from bpe_engine.training.bpe import BpeTrainerConfig, train
    from tui.train.step_log import StepLog

    result = train([corpus], BpeTrainerConfig(vocab_size=256 + merges))
    stepper = Stepper.from_text(corpus, GPT2, byte_level=True, merges=list(result.steps))
    return ExplorerState(
        corpus=corpus, merges=StepLog().extended(result.steps), initial_tokens=stepper.initial_token_count,
        tokenizer=result.tokenizer, step=merges, initial_types=stepper.initial_type_counts,
    )


def renyi_line(app: Any) -> tuple[list[float], list[float]]:
    """The (x, y) of the chart's efficiency line."""
    from textual_plot import PlotWidget

    plot = app.query_one(PlotWidget)
    labels = plot._labels  # noqa: SLF001 - the plot keeps no public list
    assert RENYI_LABEL in labels, labels
    data = plot._datasets[labels.index(RENYI_LABEL)]  # noqa: SLF001
    return [float(x) for x in data.x], [float(y) for y in data.y]


async def test_the_curve_draws_renyi_efficiency_per_merge_step() -> None:
    corpus = "hello world, hello there. 한국어 텍스트\n" * 20
    state = trained_state(corpus, 40)
    app = CompareHost("hello", ("ours",), tokenizer=state.tokenizer, state=state)
    async with app.run_test(size=(150, 45)) as pilot:
        await settle_panes(pilot)
        app.query_one(ComparePane).show_view("compare-curve")
        await settle_panes(pilot)
        xs, ys = renyi_line(app)
        merges = len(state.merges)
        assert merges > 20 and xs == [float(k) for k in range(merges + 1)]  # every merge step (thinned above 200)
        for k in (0, 1, 10, merges):
            assert ys[k] == metric(state.tokenizer.with_merge_prefix(k), corpus, "renyi_efficiency"), k  # type: ignore[union-attr]
        title = str(app.query_one("#curve-title").render())
        assert "⣀ ours" in title and f"▚ {RENYI_LABEL}" in title


async def test_the_train_tab_gives_the_curve_its_counts() -> None:
    """In the app the Train tab's stepper gives the counts before any merge: after a run, the
    line's last point is the trained model's efficiency on the corpus."""
    app = ExplorerApp(SMALL * 20)
    async with app.run_test(size=(120, 40)) as pilot:
        await set_input(pilot, app, "#vocab", "300")
        await train_to_end(app, pilot)
        await pilot.press("f4")
        await settle(app, pilot)
        app.query_one(ComparePane).show_view("compare-curve")
        await settle(app, pilot)
        await settle_panes(pilot)
        state = app.train_pane.state
        assert state.initial_types is not None and state.tokenizer is not None
        xs, ys = renyi_line(app)
        assert xs[-1] == len(state.merges)
        assert ys[-1] == metric(state.tokenizer, state.corpus, "renyi_efficiency")
