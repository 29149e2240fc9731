"""Every tokenizer a comparison row (or the inspector) can use, and the picker's search over them.

The rows come from one place each: the two baselines (characters, whitespace words), the model
trained in the app (``ours``), and the catalogue's :func:`bpe_engine.catalog.list_models` --
installed references, built-ins (present, or missing with the command that fetches them) and
tokenizers found in the user's Hugging Face cache (``hf:ORG/NAME``). Files are added by path.

>>> from bpe_engine.catalog import ModelInfo
>>> info = ModelInfo("tekken", "Tekken 131k", "builtin", "missing", "tekken", "mistral-common==1.13.1 wheel", "Apache-2.0", None, None, "bpe-explorer models fetch tekken")
>>> found = search(candidates([info]), "tek")
>>> [(c.spec, c.fetchable) for c in found]
[('tekken', True)]
>>> [c.spec for c in search(candidates([info]), "white")]
['words']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..catalog import ModelInfo
from ..choices import OURS


@dataclass(frozen=True, slots=True)
class Candidate:
    """One tokenizer a row can show. ``state``: ``present`` (usable now), ``missing`` or
    ``corrupt`` (a built-in to fetch first: ``how`` says with which command)."""

    spec: str
    title: str
    origin: str
    state: str = "present"
    source: str = ""
    how: str = ""
    note: str = ""

    @property
    def usable(self) -> bool:
        return self.state == "present"

    @property
    def fetchable(self) -> bool:
        """A built-in that is not in the cache (yet, or no longer intact)."""
        return self.origin == "builtin" and self.state != "present"


BASELINES: tuple[Candidate, ...] = (
    Candidate("characters", "every code point one token (the baseline of 1 token per character)", "baseline"),
    Candidate("words", "whitespace words (the baseline of 1 token per word)", "baseline"),
    Candidate(OURS, "the model trained in the app, at step k", "trained"),
)


def candidates(models: Sequence[ModelInfo]) -> list[Candidate]:
    """The baselines, ours, then the catalogue's rows in its order (installed, built-ins, hub cache)."""
    out = list(BASELINES)
    for m in models:
        note = m.note or ("not fetched yet" if m.state == "missing" else "fails its pinned sha256" if m.state == "corrupt" else "")
        out.append(Candidate(m.name, m.title, m.origin, m.state, m.source, m.how, note))
    return out


def search(found: Sequence[Candidate], query: str) -> list[Candidate]:
    """Candidates holding every word of ``query`` (case-insensitive) in their name, title or
    origin; names that start with the query come first, then the catalogue order."""
    words = query.lower().split()
    if not words:
        return list(found)
    hits = [c for c in found if all(w in f"{c.spec} {c.title} {c.origin}".lower() for w in words)]
    return sorted(hits, key=lambda c: not c.spec.lower().startswith(words[0]))


__all__ = ["BASELINES", "OURS", "Candidate", "candidates", "search"]
