"""Shared fixtures: the test corpora shipped in tests/data (never ../shared, never the network)."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def alice_text() -> str:
    return (DATA / "alice29.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def korean_text() -> str:
    return (DATA / "constitution.txt").read_text(encoding="utf-8")
