"""NFC, NFD, NFKC and NFKD exactly as Hugging Face computes them, with HF's alignment changes.

HF normalises with the ``unicode-normalization-alignments`` crate (Unicode 9.0 tables), which also
says, for every output character, how it relates to the input (the ``change`` of
:meth:`.NormalizedString.transform`). Two paths give the same text:

* :func:`normalize_text` -- ids only: ``unicodedata.normalize``, which equals HF's output unless the
  text holds one of the few characters whose normalisation changed after Unicode 9
  (:func:`~.unicode_tables.has_version_differences`); then the careful path's text is used.
* :func:`form_changes` -- the crate's algorithm, ported: decompose each character (first output
  ``change`` 0, the rest 1), stable-sort every run of non-starters by combining class (the changes
  travel with their characters), then, for the composed forms, the crate's recomposition state
  machine, where a composed character's change is ``composee + ch - 1``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Literal

from .unicode_tables import combining_class, composes_to, decompose, has_version_differences

Form = Literal["NFC", "NFD", "NFKC", "NFKD"]
FORMS: tuple[Form, ...] = ("NFC", "NFD", "NFKC", "NFKD")
Change = tuple[str, int]


def normalize_text(form: Form, text: str) -> str:
    """``text`` in Unicode normalisation ``form``, as HF computes it."""
    if not has_version_differences(text):
        return unicodedata.normalize(form, text)
    return "".join(ch for ch, _ in form_changes(form, text))


def form_changes(form: Form, text: str) -> list[Change]:
    """``(char, change)`` per output character (see the module docstring)."""
    decomposed = _decompose(text, compat=form in ("NFKC", "NFKD"))
    if form in ("NFC", "NFKC"):
        return _recompose(decomposed)
    return [(ch, change) for _, ch, change in decomposed]


def _decompose(text: str, compat: bool) -> list[tuple[int, str, int]]:
    out: list[tuple[int, str, int]] = []
    for c in text:
        for i, d in enumerate(_decomposition(c, compat)):
            out.append((combining_class(d), d, 0 if i == 0 else 1))
    n = len(out)
    i = 0
    while i < n:
        if out[i][0] == 0:
            i += 1
            continue
        j = i
        while j < n and out[j][0] != 0:
            j += 1
        if j - i > 1:
            out[i:j] = sorted(out[i:j], key=lambda item: item[0])  # stable, like the crate's sort_by_key
        i = j
    return out


@lru_cache(maxsize=65536)
def _decomposition(c: str, compat: bool) -> str:
    return decompose(c, compat)


def _recompose(items: list[tuple[int, str, int]]) -> list[Change]:
    """The crate's ``Recompositions`` iterator (UAX #15 canonical composition), with changes."""
    out: list[Change] = []
    blocked: list[Change] = []
    composee: Change | None = None
    last_ccc: int | None = None
    for ccc, ch, change in items:
        if composee is None:
            if ccc != 0:
                out.append((ch, change))
            else:
                composee = (ch, change)
            continue
        if last_ccc is not None and last_ccc >= ccc:  # ch is blocked from the composee
            if ccc == 0:
                out.append(composee)
                out.extend(blocked)
                blocked.clear()
                composee, last_ccc = (ch, change), None
            else:
                blocked.append((ch, change))
                last_ccc = ccc
            continue
        composed = _compose(composee[0], ch)
        if composed is not None:
            composee = (composed, composee[1] + change - 1)
        elif last_ccc is None and ccc == 0:
            out.append(composee)
            composee = (ch, change)
        else:
            blocked.append((ch, change))
            last_ccc = ccc
    if composee is not None:
        out.append(composee)
    out.extend(blocked)
    return out


@lru_cache(maxsize=65536)
def _compose(first: str, second: str) -> str | None:
    """The primary composite of ``first + second``, if HF's tables have one."""
    composed = unicodedata.normalize("NFC", first + second)
    if len(composed) != 1 or not composes_to(composed):
        return None
    mapping = unicodedata.decomposition(composed)  # empty for Hangul syllables (algorithmic)
    if mapping:
        parts = mapping.split()
        if parts[0].startswith("<") or "".join(chr(int(p, 16)) for p in parts) != first + second:
            return None
    return composed
