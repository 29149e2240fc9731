"""What keeps the Train tab responsive while a run streams in, checked as behaviour,
never as time: the stepper comes ready with the run (built off the UI thread), a stepper that
cannot be built fails the run instead of leaving it "counting" forever, and batches of merges do
not lay out the whole screen."""

from __future__ import annotations

import asyncio

from textual.widget import Widget
from textual.widgets import Select, TextArea

import tui.train.run_events as run_events
import tui.train.runs as runs
from bpe_engine.corpus.cut import PROGRESS_CHARS, CorpusWords
from bpe_engine.errors import ConfigError
from bpe_engine.pretokenizers import CL100K, GPT2
from bpe_engine.training.runner import Started, TrainingRequest
from tests.tui.pilot import runner, set_input, settle, shown
from tui.app import ExplorerApp
from tui.messages import TrainingEvent
from tui.train.corpus_pane import CorpusCounting, CorpusCut
from tui.train.progress_panel import ProgressPanel
from tui.train.step_table import StepTable


async def test_started_run_arrives_with_its_stepper_and_steps_at_once(alice_text: str) -> None:
    started: list[TrainingEvent] = []

    def hook(message) -> None:  # noqa: ANN001
        if isinstance(message, TrainingEvent) and isinstance(message.event, Started):
            started.append(message)

    app = ExplorerApp(alice_text, runner=runner(throttle=0.002))
    async with app.run_test(size=(120, 36), message_hook=hook) as pilot:
        await set_input(pilot, app, "#vocab", "3000")
        app.train_pane.train()
        while app.train_pane.stepper is None or app.train_pane.stepper.available < 5:
            await asyncio.sleep(0.05)
        assert len(started) == 1 and started[0].stepper is app.train_pane.stepper, "the worker hands over the stepper it built"
        assert app.train_pane.stepper.available == len(app.train_pane.step_log), "every step fed to the stepper"
        await pilot.press("n", "n", "n")
        assert app.train_pane.current_step == 3 and app.train_pane.stepper.step == 3
        app.train_pane.cancel()
        await settle(app, pilot)


async def test_a_stepper_that_cannot_be_built_fails_the_run(monkeypatch) -> None:  # noqa: ANN001
    def refuse(words, view):  # noqa: ANN001, ANN202
        raise ConfigError("more than 1,114,111 distinct tokens: too many to step through")

    monkeypatch.setattr(run_events, "stepper_for", refuse)
    app = ExplorerApp("low lower lowest newer wider\n" * 5)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("ctrl+t")
        await settle(app, pilot)
        assert not app.train_pane.training, "the run ends: it is not left 'counting' forever"
        assert "too many to step through" in shown(app, "#progress-status")


async def test_batches_of_merges_do_not_lay_out_the_screen(alice_text: str, monkeypatch) -> None:  # noqa: ANN001
    laid_out: list[str] = []
    refresh = Widget.refresh

    def spy(self, *args, layout: bool = False, **kwargs):  # noqa: ANN001, ANN202
        if layout and isinstance(self, (StepTable, ProgressPanel)) or layout and self.id == "progress-status":
            laid_out.append(type(self).__name__)
        return refresh(self, *args, layout=layout, **kwargs)

    app = ExplorerApp(alice_text, runner=runner(throttle=0.002))
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "3000")
        app.train_pane.train()
        table = app.query_one(StepTable)
        while app.train_pane.stepper is None or table.row_count < 200:  # the list scrolls by now
            await asyncio.sleep(0.05)
        monkeypatch.setattr(Widget, "refresh", spy)
        before = table.row_count
        while table.row_count < before + 100:  # several batches
            await asyncio.sleep(0.05)
        monkeypatch.setattr(Widget, "refresh", refresh)
        assert laid_out == [], f"a batch laid out the screen through {laid_out}"
        app.train_pane.cancel()
        await settle(app, pilot)


async def test_ctrl_t_trains_on_the_cut_the_facts_line_made(alice_text: str, monkeypatch) -> None:  # noqa: ANN001
    """The corpus is cut once, for its facts line, and a run on the same text and pre-tokenizer
    reuses that cut (it was half the time of training 5 MB in the app). An edited corpus or a new
    pre-tokenizer is never trained on an old cut."""
    requests: list[TrainingRequest] = []
    real = runner()

    def spy(request: TrainingRequest, cancelled):  # noqa: ANN001, ANN202
        requests.append(request)
        return real(request, cancelled)

    text = alice_text[:20000]
    app = ExplorerApp(text, runner=spy)
    async with app.run_test(size=(120, 36)) as pilot:
        await until(pilot, lambda: app.train_pane.corpus_cut is not None)
        await set_input(pilot, app, "#vocab", "300")
        cut = app.train_pane.corpus_cut
        await pilot.press("ctrl+t")
        await settle(app, pilot)
        assert requests[-1].words is cut.words, "the facts line's cut is reused"
        assert cut.words.texts == CorpusWords.from_text(text, GPT2).texts

        app.query_one("#pretok", Select).value = "cl100k"
        await pilot.pause()
        await pilot.press("ctrl+t")  # the gpt2 cut must not be used, whether the cl100k facts came or not
        await settle(app, pilot)
        words = requests[-1].words
        assert requests[-1].front_end == CL100K and words is not cut.words
        assert words is None or words.texts == CorpusWords.from_text(text, CL100K).texts
        await until(pilot, lambda: app.train_pane.corpus_cut is not None and app.train_pane.corpus_cut.pre_tokenizer == CL100K)

        area = app.query_one("#corpus-text", TextArea)
        area.insert("zebra ", (0, 0))
        await pilot.pause()
        assert app.train_pane.corpus_cut is None, "an edit drops the cut at once"
        await pilot.press("ctrl+t")
        await settle(app, pilot)
        assert requests[-1].words is None and requests[-1].text.startswith("zebra ")
        await until(pilot, lambda: app.train_pane.corpus_cut is not None)
        assert app.train_pane.corpus_cut.text.startswith("zebra ") and app.train_pane.corpus_cut.pre_tokenizer == CL100K


def test_a_cut_serves_only_its_own_text_and_pre_tokenizer() -> None:
    text = "low lower lowest " * 50
    cut = CorpusCut(text, GPT2, CorpusWords.from_text(text, GPT2))
    assert cut.words_for("".join(text), GPT2) is cut.words, "an equal text (a copy) is the same corpus"
    assert cut.words_for(text, CL100K) is None
    assert cut.words_for(text + " ", GPT2) is None and cut.words_for(text[:-1] + "x", GPT2) is None


async def until(pilot, condition, timeout: float = 10.0) -> None:  # noqa: ANN001
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "timed out waiting"
        await pilot.pause(0.02)


async def test_the_facts_line_shows_the_cut_of_a_big_corpus_move(alice_text: str) -> None:
    """Cutting a 50 MB corpus for the facts line takes ~10 s: it reports how far it has come."""
    counting: list[CorpusCounting] = []

    def hook(message) -> None:  # noqa: ANN001
        if isinstance(message, CorpusCounting):
            counting.append(message)

    text = alice_text * (2 * PROGRESS_CHARS // len(alice_text) + 1)
    app = ExplorerApp(text)
    async with app.run_test(size=(120, 36), message_hook=hook) as pilot:
        await until(pilot, lambda: app.train_pane.corpus_cut is not None, 60)
        done = [m.done for m in counting]
        assert len(done) >= 2 and done == sorted(done) and {m.total for m in counting} == {len(text)}
        assert "unique" in shown(app, "#corpus-facts"), "the facts replace the count (the pty test sees it move)"


async def test_a_run_on_the_facts_cut_gets_its_stepper_built_from_that_cut(alice_text: str, monkeypatch) -> None:  # noqa: ANN001
    """The stepper of a run given its cut is built from the cut while the child starts (it used to
    wait for Started and the child's copy of the words): built once, from the very same cut."""
    built_from: list[CorpusWords] = []
    real = runs.stepper_for

    def spy(words, view):  # noqa: ANN001, ANN202
        built_from.append(words)
        return real(words, view)

    monkeypatch.setattr(runs, "stepper_for", spy)
    monkeypatch.setattr(run_events, "stepper_for", spy)
    app = ExplorerApp(alice_text[:20000], runner=runner(backend="child"))
    async with app.run_test(size=(120, 36)) as pilot:
        await until(pilot, lambda: app.train_pane.corpus_cut is not None)
        await set_input(pilot, app, "#vocab", "300")
        cut = app.train_pane.corpus_cut
        await pilot.press("ctrl+t")
        await until(pilot, lambda: not app.train_pane.training, 60)
        await settle(app, pilot)
        assert "done:" in shown(app, "#progress-status")
        assert len(built_from) == 1 and built_from[0] is cut.words
        assert app.train_pane.stepper is not None and app.train_pane.stepper.available == 300 - 256


async def test_a_batch_widens_the_number_columns_to_its_widest_number() -> None:
    """The widths come from each batch's largest numbers (formatting every row of a ~3,000-merge
    batch was ~7 ms of its ~11 ms on the UI thread); counts need not come in order."""
    import random

    from bpe_engine.training.steps import MergeStep

    rng = random.Random(8)
    app = ExplorerApp("low lower\n")
    async with app.run_test(size=(120, 36)) as pilot:
        table = app.query_one(StepTable)
        table.reset(byte_level=False, alphabet=10)
        counts: list[int] = []
        words: list[int] = []
        for batch in range(6):
            steps = []
            for i in range(50):
                count, changed = rng.choice([1, 9, 10, 999, 1000, 123_456, 10**7]), rng.randrange(0, 10 ** (batch + 1))
                counts.append(count)
                words.append(changed)
                steps.append(MergeStep(len(counts), "a", "b", "ab", 0, 1, 2, count, changed, count))
            table.add_steps(steps)
            await pilot.pause()
            _, _, count_width, words_width = table._widths_of  # noqa: SLF001
            assert count_width == max(len("count"), *(len(f"{c:,}") + 1 for c in counts))  # a tie mark fits too
            assert words_width == max(len("words"), *(len(f"{w:,}") for w in words))
