"""Re-derive :mod:`bpe_engine.hf.unicode_tables` from HF, so a ``tokenizers`` upgrade that changes
its Unicode knowledge fails here instead of giving other ids.

By default every table entry and every 97th code point is probed (a few seconds); set
``BPE_EXPLORER_FULL_UNICODE=1`` to probe all 1.1 million (about a minute), as the tables were made.
"""

from __future__ import annotations

import os
import unicodedata

from tokenizers import normalizers as N
from tokenizers import pre_tokenizers as P

from bpe_engine.hf import unicode_tables as T
from bpe_engine.hf.unicode_forms import normalize_text

STRIDE = 1 if os.environ.get("BPE_EXPLORER_FULL_UNICODE") else 97
TABLES = (T.NO_CANONICAL_DECOMPOSITION, T.NO_COMPAT_DECOMPOSITION, T.NOT_COMBINING, T.EXTRA_MARK, T.NOT_MARK, T.EXTRA_NUMERIC)


def _code_points() -> list[str]:
    listed = {cp for table in TABLES for lo, hi in table for cp in range(lo, hi + 1)}
    sample = set(range(0, 0x110000, STRIDE)) | listed
    return [chr(cp) for cp in sorted(sample) if not 0xD800 <= cp < 0xE000]


def test_tables_match_hf_on_every_probed_code_point() -> None:
    nfd, nfkd, nfc, nfkc = N.NFD(), N.NFKD(), N.NFC(), N.NFKC()
    strip, digits = N.StripAccents(), P.Digits(individual_digits=True)
    wrong = []
    for c in _code_points():
        for form, hf in (("NFD", nfd), ("NFKD", nfkd), ("NFC", nfc), ("NFKC", nfkc)):
            if normalize_text(form, c) != hf.normalize_str(c):
                wrong.append((form, hex(ord(c))))
        if unicodedata.combining(c):
            probe = "a\u0345" + c  # U+0345 has class 240: a smaller non-zero class moves c before it
            if normalize_text("NFD", probe) != nfd.normalize_str(probe):
                wrong.append(("combining class", hex(ord(c))))
        if T.is_combining_mark(c) != (strip.normalize_str("a" + c) == "a"):
            wrong.append(("mark", hex(ord(c))))
        if T.is_numeric(c) != (len(digits.pre_tokenize_str("a" + c + "a")) == 3):
            wrong.append(("numeric", hex(ord(c))))
    assert wrong == []
