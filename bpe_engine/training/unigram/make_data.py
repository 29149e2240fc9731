"""Rebuild the package data the Unigram trainer ships, from sentencepiece 0.2.1's own sources.

Run by hand (never at import or test time) against an unpacked ``sentencepiece==0.2.1`` sdist::

    pip download --no-deps --no-binary :all: sentencepiece==0.2.1 && tar xzf sentencepiece-0.2.1.tar.gz
    python -m bpe_engine.training.unigram.make_data sentencepiece-0.2.1/sentencepiece/src

It writes ``bpe_engine/data/sp_nmt_nfkc.charsmap`` (the ``nmt_nfkc`` blob of ``normalization_rule.h``:
the precompiled charsmap every model trained with the default rule carries) and
``bpe_engine/data/sp_unicode_scripts.tsv`` (``unicode_script_map.h`` as code-point ranges: the
table ``IsValidSentencePiece`` consults; Python's ``unicodedata`` has no script property, and the
``regex`` module's Unicode version is not sentencepiece's). Both files are Apache-2.0 (Google).
"""

from __future__ import annotations

import hashlib
import re
import struct
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data"


def charsmap_blobs(header: str) -> dict[str, bytes]:
    """The rule blobs of ``normalization_rule.h``, read from its uint64 (Windows) form."""
    body = header.split("kNormalizationRules_blob_uint64_t[] = {", 1)[1].split("};", 1)[0]
    words = [int(w, 16) for w in re.findall(r"0x[0-9A-Fa-f]+", body)]
    raw = struct.pack(f"<{len(words)}Q", *words)
    table = header.split("const BinaryBlob kNormalizationRules_blob[] = {", 1)[1].split("};", 1)[0]
    out = {}
    for name, size, start in re.findall(r'\{"(\w+)", (\d+),\s*reinterpret_cast<const char \*>\(kNormalizationRules_blob_uint64_t \+ (\d+)\)', table):
        out[name] = raw[int(start) * 8 : int(start) * 8 + int(size)]
    return out


def script_ranges(header: str) -> list[tuple[int, int, str]]:
    """``(first, last, script)`` runs of ``InitTable`` (merged where adjacent and equal)."""
    ranges: list[tuple[int, int, str]] = []
    for m in re.finditer(r"for \(char32 c = 0x([0-9A-F]+); c <= 0x([0-9A-F]+); \+\+c\) \(\*smap\)\[c\] = U_(\w+);|\(\*smap\)\[0x([0-9A-F]+)\] = U_(\w+);", header):
        if m.group(1):
            first, last, script = int(m.group(1), 16), int(m.group(2), 16), m.group(3)
        else:
            first = last = int(m.group(4), 16)
            script = m.group(5)
        ranges.append((first, last, script))
    ranges.sort()
    merged: list[tuple[int, int, str]] = []
    for first, last, script in ranges:
        if merged and merged[-1][2] == script and merged[-1][1] + 1 == first:
            merged[-1] = (merged[-1][0], last, script)
        else:
            merged.append((first, last, script))
    return merged


def main(src: str) -> None:
    root = Path(src)
    blobs = charsmap_blobs((root / "normalization_rule.h").read_text())
    blob = blobs["nmt_nfkc"]
    (DATA / "sp_nmt_nfkc.charsmap").write_bytes(blob)
    print("sp_nmt_nfkc.charsmap", len(blob), hashlib.sha256(blob).hexdigest())
    rows = script_ranges((root / "unicode_script_map.h").read_text())
    text = "".join(f"{a:X}\t{b:X}\t{s}\n" for a, b, s in rows)
    (DATA / "sp_unicode_scripts.tsv").write_text(text)
    print("sp_unicode_scripts.tsv", len(rows), hashlib.sha256(text.encode()).hexdigest())


if __name__ == "__main__":
    main(sys.argv[1])
