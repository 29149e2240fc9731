"""Fertility units per script, on golden examples (tokka-bench's rules), and the vector form equal
to the readable rule on every shipped declaration."""

from __future__ import annotations

import pytest

from bpe_engine.metrics.languages.scripts import text_script, unit_kind
from bpe_engine.metrics.languages.udhr import declarations
from bpe_engine.metrics.languages.units import WHITESPACE, part_units, unit_spans

GOLDEN = [
    # (script, text, units) -- the units tokka-bench's _segment_units gives for this script
    ("Latn", "All human beings are born free", ["All", "human", "beings", "are", "born", "free"]),
    ("Hang", "모든 인간은  태어날\u3000때부터", ["모든", "인간은", "태어날", "때부터"]),
    ("Ethi", "የሰው፡ልጅ፡ሁሉ፡ሲወለድ ነጻ።", ["የሰው፡ልጅ፡ሁሉ፡ሲወለድ", "ነጻ።"]),
    ("Hani", "人人生而自由， 在尊严", ["人", "人", "生", "而", "自", "由", "，", "在", "尊", "严"]),
    ("Jpan", "すべての人間は、", ["す", "べ", "て", "の", "人", "間", "は", "、"]),
    ("Thai", "มนุษย์ ทั้ง", ["ม", "น", "ุ", "ษ", "ย", "์", "ท", "ั", "้", "ง"]),
    ("Khmr", "មនុស្ស", list("មនុស្ស")),
    ("Laoo", "ມະນຸດ", list("ມະນຸດ")),
    ("Mymr", "လူတိုင်း", list("လူတိုင်း")),
    ("Tibt", "འགྲོ་བ་མིའི་རིགས་ རང་དབང་།", ["འགྲོ", "བ", "མིའི", "རིགས", "རང", "དབང", "།"]),
    ("Tibt", "བོད་ཡིག", list("བོདཡིག")),  # fewer than 3 syllables: characters, tsheg left out
]


@pytest.mark.parametrize(("script", "text", "units"), GOLDEN, ids=[g[0] + str(i) for i, g in enumerate(GOLDEN)])
def test_golden_units(script: str, text: str, units: list[str]) -> None:
    kind = unit_kind(script)
    spans = unit_spans(text, kind)
    assert [text[a:b] for a, b in spans] == units
    starts, ends = part_units([text], kind)
    assert list(zip(starts.tolist(), ends.tolist())) == spans


def test_unit_kinds_follow_tokka_bench() -> None:
    assert {s: unit_kind(s) for s in ("Hani", "Hant", "Jpan", "Thai", "Laoo", "Khmr", "Mymr")} == dict.fromkeys(
        ("Hani", "Hant", "Jpan", "Thai", "Laoo", "Khmr", "Mymr"), "character"
    )
    assert unit_kind("Tibt") == "syllable" and {unit_kind(s) for s in ("Latn", "Hang", "Ethi", "Deva", "Arab")} == {"word"}


def test_text_script() -> None:
    assert text_script("Привет, мир") == "Cyrl" and text_script("漢字とかな") == "Jpan" and text_script("漢字") == "Hani"
    assert text_script("123 ...") == "Zyyy" and text_script("ሰላም") == "Ethi"


def test_whitespace_is_exactly_str_isspace() -> None:
    assert {c for c in range(0x110000) if chr(c).isspace()} == WHITESPACE


def test_vector_units_equal_the_rule_on_every_declaration() -> None:
    """Each declaration in its own script's unit, and every 25th in all three."""
    for n, d in enumerate(declarations()):
        parts = [text for _, text in d.parts]
        for kind in ("word", "character", "syllable") if n % 25 == 0 else (unit_kind(d.script),):
            starts, ends = part_units(parts, kind)
            expected, offset = [], 0
            for part in parts:
                expected += [(a + offset, b + offset) for a, b in unit_spans(part, kind)]
                offset += len(part)
            assert list(zip(starts.tolist(), ends.tolist())) == expected, (d.code, kind)
