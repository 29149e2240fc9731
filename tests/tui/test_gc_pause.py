"""The collector pause is counted across overlapping runs and always restored."""

from __future__ import annotations

import gc
import weakref

import pytest

from tests.tui.pilot import settle_panes
from tui.app import ExplorerApp
from tui.gc_pause import collector_paused, freeze_what_lives


def test_pause_nests_and_restores() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled(), "the outer run is still going"
    assert gc.isenabled()


def test_restored_after_an_error() -> None:
    with pytest.raises(RuntimeError):
        with collector_paused():
            raise RuntimeError("worker failed")
    assert gc.isenabled()


def _tracked(obj: object) -> bool:
    """Whether full collections still walk ``obj`` (frozen objects are not in gc.get_objects())."""
    return any(o is obj for o in gc.get_objects())


class _Box(list):  # type: ignore[type-arg]  # a list that can be weakly referenced
    pass


def test_what_lives_is_frozen_and_garbage_is_not() -> None:
    kept = {"a long-lived": ["structure"]}
    cycle = _Box()
    cycle.append(cycle)
    garbage = weakref.ref(cycle)
    del cycle
    before = gc.get_freeze_count()
    freeze_what_lives()
    try:
        assert not _tracked(kept), "a structure alive at the call is no longer walked"
        assert gc.get_freeze_count() > before
        assert garbage() is None, "cyclic garbage is collected, not frozen"
    finally:
        gc.unfreeze()


def test_a_run_going_freezes_nothing_until_it_ends() -> None:
    with collector_paused():
        before = gc.get_freeze_count()
        freeze_what_lives()
        assert gc.get_freeze_count() == before
    gc.unfreeze()


async def test_the_app_freezes_its_corpus_cut_and_a_mounted_pane() -> None:
    """The corpus cut (kept for ctrl+t) and the Inspect pane, once built, are out of the
    collector's full passes: one such pass fell in the middle of a tab switch (~24 ms)."""
    app = ExplorerApp("low lower lowest newer wider\nthe cat sat on the mat, the end.\n")
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle_panes(pilot)
            assert app.train_pane.corpus_cut is not None  # noqa: SLF001
            assert not _tracked(app.train_pane.corpus_cut)  # noqa: SLF001
            await pilot.press("f3")
            await settle_panes(pilot)
            assert not _tracked(app.query_one("#inspector"))
    finally:
        gc.unfreeze()


def test_a_loaded_reference_tokenizer_is_frozen() -> None:
    from tui.models import sources

    sources._cache.pop("gpt2", None)  # noqa: SLF001 - load it anew
    try:
        tok = sources.get("gpt2", lambda: None)
        assert not _tracked(tok)
    finally:
        gc.unfreeze()
