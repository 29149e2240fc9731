"""Every name bpe_engine promises in __all__ resolves (its docstring examples run with the doctests)."""

from __future__ import annotations

import bpe_engine


def test_every_public_name_resolves() -> None:
    for name in bpe_engine.__all__:
        assert getattr(bpe_engine, name) is not None, name
