"""Fixtures of the pseudo-terminal layer: the app in a pty, and corpora big enough to matter.

Corpora are built once per session in a temp directory from the repository's own test data
(``tests/data``: CI has no ``../shared``), deterministically: the English and Korean lines are
shuffled with a fixed seed and numbered, so the text is varied rather than one file repeated.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.pty.pty_terminal import Terminal, app_command

DATA = Path(__file__).resolve().parents[1] / "data"


def build_corpus(path: Path, size: int, *, seed: int = 8) -> Path:
    """At least ``size`` bytes of mixed English/Korean text, the same on every run."""
    lines = [
        line
        for name in ("alice29.txt", "constitution.txt")
        for line in (DATA / name).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    rng = random.Random(seed)
    out: list[str] = []
    total = 0
    round_no = 0
    while total < size:
        order = lines[:]
        rng.shuffle(order)
        for line in order:
            text = f"{line} ({round_no})\n" if round_no else line + "\n"
            out.append(text)
            total += len(text.encode("utf-8"))
            if total >= size:
                break
        round_no += 1
    path.write_text("".join(out), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def corpus_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pty-corpora")


@pytest.fixture(scope="session")
def corpus_1mb(corpus_dir: Path) -> Path:
    """A 1 MB corpus: above the size where the app trains in a child process."""
    return build_corpus(corpus_dir / "mixed_1mb.txt", 1_000_000)


def build_many_words_corpus(path: Path, size: int, *, seed: int = 3) -> Path:
    """At least ``size`` bytes of made-up words (Latin letters and the Hangul syllables of the
    repository's Korean text), the same on every run: ~100,000 distinct words, so every merge
    touches many of them."""
    hangul = sorted({ch for ch in (DATA / "constitution.txt").read_text(encoding="utf-8") if "가" <= ch <= "힣"})
    latin = "abcdefghijklmnopqrstuvwxyz"
    rng = random.Random(seed)
    out: list[str] = []
    total = 0
    while total < size:
        words = [
            "".join(rng.choices(latin, k=rng.randrange(3, 9)))
            if rng.random() < 0.5
            else "".join(rng.choices(hangul, k=rng.randrange(2, 5)))
            for _ in range(rng.randrange(5, 14))
        ]
        line = " ".join(words) + "\n"
        out.append(line)
        total += len(line.encode("utf-8"))
    path.write_text("".join(out), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def corpus_300k(corpus_dir: Path) -> Path:
    """Just above 300,000 characters (the size at which the first release failed in a terminal)."""
    path = build_corpus(corpus_dir / "mixed_300k.txt", 400_000, seed=9)
    assert len(path.read_text(encoding="utf-8")) >= 300_000
    return path


@pytest.fixture(scope="session")
def corpus_slow_to_train(corpus_dir: Path) -> Path:
    """1 MB that takes seconds to train to 30,000 tokens (the mixed 1 MB corpus runs out of pairs
    after ~9,500 merges in well under a second): a key sent once training shows progress reaches
    the app while it still trains, even on a loaded machine."""
    return build_many_words_corpus(corpus_dir / "many_words_1mb.txt", 1_000_000)


@pytest.fixture(scope="session")
def corpus_5mb(corpus_dir: Path) -> Path:
    return build_corpus(corpus_dir / "mixed_5mb.txt", 5_000_000, seed=5)


@pytest.fixture(scope="session")
def corpus_50mb(corpus_dir: Path) -> Path:
    return build_corpus(corpus_dir / "mixed_50mb.txt", 50_000_000, seed=50)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """The app's HOME and working directory: nothing it writes lands in the repository."""
    (tmp_path / "home").mkdir()
    (tmp_path / "work").mkdir()
    return tmp_path


@pytest.fixture
def run_app(workdir: Path) -> Iterator[Callable[..., Terminal]]:
    """``run_app(*args, size=(120, 40))`` starts ``bpe-explorer *args`` in a pty; every app started
    is killed and reaped at the end of the test, whatever happened."""
    started: list[Terminal] = []

    def start(*args: str | Path, size: tuple[int, int] = (120, 40)) -> Terminal:
        term = Terminal(
            [*app_command(), *map(str, args)],
            cols=size[0],
            rows=size[1],
            cwd=workdir / "work",
            home=workdir / "home",
        )
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()
