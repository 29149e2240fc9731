"""Every name bpe_engine promises in __all__ resolves, and the docstring examples hold."""

from __future__ import annotations

import doctest

import bpe_engine


def test_every_public_name_resolves() -> None:
    for name in bpe_engine.__all__:
        assert getattr(bpe_engine, name) is not None, name


def test_package_docstring_examples() -> None:
    failures, tried = doctest.testmod(bpe_engine, verbose=False)
    assert tried > 0 and failures == 0
