"""No worker is named after its arguments: Textual builds a worker's description from ``repr()`` of
the arguments unless it is given one, on the UI thread. The corpus facts worker takes the whole
corpus -- 48 ms of the UI thread per count for 5 MB, 294 ms for 50 MB (a cProfile of start-up
found it) -- and the chart, Inspect and Compare workers take the corpus or the typed text."""

from __future__ import annotations

import pytest
from textual.widgets import Input, TextArea
from textual.worker import Worker
from textual.worker_manager import WorkerManager

from tests.tui.pilot import settle_panes
from tui.app import ExplorerApp
from tui.compare.pane import SYNC_LIMIT

LONGEST_NAME = 200  # characters: a name, not a copy of the text


@pytest.fixture
def started_workers(monkeypatch: pytest.MonkeyPatch) -> list[Worker]:
    """Every worker the app starts, finished ones included."""
    started: list[Worker] = []
    add_worker = WorkerManager.add_worker

    def recording(self: WorkerManager, worker: Worker, start: bool = True, exclusive: bool = True) -> None:
        started.append(worker)
        add_worker(self, worker, start, exclusive)

    monkeypatch.setattr(WorkerManager, "add_worker", recording)
    return started


async def test_no_worker_is_named_after_the_corpus_or_the_text(started_workers: list[Worker]) -> None:
    corpus = "the cat sat on the mat, 한국어 텍스트. " * 3_000  # ~100,000 characters
    pasted = "pasted into the box " * (SYNC_LIMIT // 10)  # Compare encodes a shorter text in place
    app = ExplorerApp(corpus)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)  # the corpus facts
        for tab in ("f3", "f4"):  # Inspect and Compare encode their text
            await pilot.press(tab)
            await settle_panes(pilot)
            box = app.focused
            if isinstance(box, Input):
                box.insert_text_at_cursor(pasted)
            else:
                assert isinstance(box, TextArea), box
                box.insert(pasted)
            await settle_panes(pilot)
    groups = {worker.group for worker in started_workers}
    assert {"corpus-facts", "inspect", "compare"} <= groups, groups  # the workers that take text ran
    long_names = {worker.group: len(worker.description) for worker in started_workers if len(worker.description) > LONGEST_NAME}
    assert not long_names, f"workers named after their arguments (group: length of the name): {long_names}"
