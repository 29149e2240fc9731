"""A parallel corpus laid out as one file per language (FLORES-200's ``devtest/kor_Hang.devtest``).

Each regular file of the directory (hidden ones skipped) is one language: its name without the
extension is the code (``kor_Hang``); a ``_Xxxx`` ISO 15924 suffix, as FLORES names carry, gives
the script, else the text's letters do (:func:`.scripts.text_script`). Line N of every file is part
N of the same content; empty lines are parts the language lacks, so the premium compares the lines
both languages have. :func:`parallel_warnings` says when texts given as parallel do not look it --
used by ``languages --corpus`` and ``metrics --parallel`` alike.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "eng_Latn.dev").write_text("One.\\nTwo.\\n"); _ = (d / "kor_Hang.dev").write_text("하나.\\n둘.\\n")
>>> [(t.code, t.script, len(t.parts)) for t in read_corpus(d)]
[('eng_Latn', 'Latn', 2), ('kor_Hang', 'Hang', 2)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ...display import visible_text
from ...errors import ConfigError
from ...text_files import read_text_file
from .scripts import text_script

MAX_FILES = 2_000
"""More files than this in a corpus directory is not a parallel corpus of languages (FLORES-200
has 204): refused with the count instead of reading them all."""


@dataclass(frozen=True, slots=True)
class CorpusText:
    """One language's file: parts are its non-empty lines, numbered from 1."""

    code: str
    name: str
    script: str
    parts: tuple[tuple[int, str], ...]
    lines: int


def read_corpus(directory: str | Path) -> list[CorpusText]:
    """Every language file of ``directory``, in name order."""
    root = Path(directory).expanduser()
    shown = visible_text(str(directory))
    if not root.is_dir():
        raise ConfigError(f"--corpus {shown} is not a directory: give a folder with one file per language")
    files = sorted(p for p in root.iterdir() if p.is_file() and not p.name.startswith("."))
    if not files:
        raise ConfigError(f"--corpus {shown} holds no files: give a folder with one file per language")
    if len(files) > MAX_FILES:
        raise ConfigError(f"--corpus {shown} holds {len(files):,} files, more than the {MAX_FILES:,} languages a parallel corpus has")
    return [corpus_text(path) for path in files]


def corpus_text(path: Path) -> CorpusText:
    text = read_text_file(path)
    lines = text.splitlines()
    parts = tuple((n, line) for n, line in enumerate(lines, 1) if line.strip())
    code = path.name.split(".", 1)[0] or path.name
    tail = code.rsplit("_", 1)[-1] if "_" in code else ""
    script = tail if len(tail) == 4 and tail.isalpha() and tail.istitle() else text_script(text)
    return CorpusText(code, code, script, parts, len(lines))


def find_reference(texts: Sequence[CorpusText], base: str) -> CorpusText:
    """The text premiums are counted against: the code ``base`` exactly, else the one whose code
    starts ``base_`` (``eng`` finds ``eng_Latn``)."""
    for rule in (lambda t: t.code == base, lambda t: t.code.split("_")[0] == base):
        found = [t for t in texts if rule(t)]
        if found:
            return found[0]
    names = ", ".join(visible_text(t.code) for t in texts[:6])
    raise ConfigError(f"no file of the corpus is {visible_text(base)!r} (files: {names}...); name the reference with --base")


def parallel_warnings(named_counts: Sequence[tuple[str, int]], unit: str = "lines") -> list[str]:
    """What to tell the user when texts given as parallel do not look parallel: their counts of
    ``unit`` (lines, articles) differ -- a premium of two different contents measures nothing."""
    counts = {n for _, n in named_counts}
    if len(counts) <= 1:
        return []
    low = min(named_counts, key=lambda x: x[1])
    high = max(named_counts, key=lambda x: x[1])
    return [
        f"the texts given as parallel do not look parallel: {visible_text(low[0])} has {low[1]:,} {unit}, "
        f"{visible_text(high[0])} {high[1]:,}; a premium compares the same content in two languages"
    ]


__all__ = ["MAX_FILES", "CorpusText", "corpus_text", "find_reference", "parallel_warnings", "read_corpus"]
