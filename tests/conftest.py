"""Shared fixtures: the test corpora shipped in tests/data (never ../shared, never the network)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _pytest.doctest import DoctestModule
from hypothesis import HealthCheck, settings

from tests.oracles import under_ci

# Property tests judge correctness, never speed: no per-example deadline (a loaded 2-core CI
# machine would turn the default 200 ms into flakes). Under CI the examples are derandomized so a
# run is reproducible; locally they stay random to keep finding new cases.
settings.register_profile(
    "bpe-explorer",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=under_ci(),
    print_blob=True,
)
settings.load_profile("bpe-explorer")

DATA = Path(__file__).parent / "data"


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> list[pytest.Collector]:
    """``--doctest-modules`` (in the project's addopts) is for the examples in ``bpe_engine``: the
    test modules hold none, and their helpers import the optional oracles (``tests/hf_oracle.py``
    imports ``tokenizers``), so no file under ``tests/`` is collected a second time as a doctest module."""
    collected = yield
    return [collector for collector in collected if not isinstance(collector, DoctestModule)]


@pytest.fixture(scope="session")
def alice_text() -> str:
    return (DATA / "alice29.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def korean_text() -> str:
    return (DATA / "constitution.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def builtin_model_path():  # type: ignore[no-untyped-def]
    """``builtin_model_path(name)`` -> the verified cached file of a built-in tokenizer.

    The built-ins are fetched before the suite runs (``.ci/run`` and the README's test command run
    ``bpe-explorer models fetch``); a test that needs an absent one *fails* with that command --
    a parity test that silently skips would prove nothing.
    """
    from bpe_engine.catalog import FileState, builtin, fetch_command, file_state, model_path

    def path_of(name: str) -> Path:
        model = builtin(name)
        if model is None:
            pytest.fail(f"{name!r} is not a built-in tokenizer", pytrace=False)
        state = file_state(model)
        if state is not FileState.PRESENT:
            pytest.fail(f"built-in {name!r} is {state.value} in the cache: run `{fetch_command(name)}`", pytrace=False)
        return model_path(model)

    return path_of
