"""The collector pause is counted across overlapping runs and always restored."""

from __future__ import annotations

import gc

import pytest

from tui.gc_pause import collector_paused


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
