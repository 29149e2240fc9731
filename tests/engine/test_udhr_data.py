"""The shipped UDHR: its checksum as pinned and as PROVENANCE.md says, and what it holds."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from importlib import resources

import pytest

from bpe_engine.errors import ConfigError
from bpe_engine.metrics.languages import udhr
from bpe_engine.metrics.languages.scripts import text_script

DATA = resources.files("bpe_engine").joinpath(udhr.DATA_FILE)


def test_the_shipped_file_has_the_pinned_and_documented_checksum() -> None:
    digest = hashlib.sha256(DATA.read_bytes()).hexdigest()
    provenance = resources.files("bpe_engine").joinpath("data/PROVENANCE.md").read_text()
    row = next(line for line in provenance.splitlines() if line.startswith("| `udhr.json.xz`"))
    assert digest == udhr.SHA256
    assert re.findall(r"`([0-9a-f]{64})`", row)[-1] == digest
    assert f"{len(DATA.read_bytes()):,} bytes" in row


def test_a_damaged_file_is_refused_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    udhr.declarations.cache_clear()
    monkeypatch.setattr(udhr, "SHA256", "0" * 64)
    try:
        with pytest.raises(ConfigError, match="damaged.*reinstall"):
            udhr.declarations()
    finally:
        udhr.declarations.cache_clear()


def test_the_declarations_line_up_article_by_article() -> None:
    every = udhr.declarations()
    assert len(every) == 532 and len({d.code for d in every}) == 532
    complete = [d for d in every if set(range(1, 31)) <= d.numbers]
    assert len(complete) == 521
    assert all(d.direction in ("ltr", "rtl", "ttb") and d.parts and d.script for d in every)
    eng, kor, arb = (udhr.find(c)[0] for c in ("eng", "kor", "arb"))
    assert (eng.iso6393, eng.bcp47, eng.script, eng.direction) == ("eng", "en", "Latn", "ltr")
    assert (kor.name, kor.script) == ("Korean", "Hang") and kor.article(1).startswith("제 1 조\n모든 인간은 태어날 때부터")
    assert (arb.direction, arb.script) == ("rtl", "Arab")
    assert eng.article(21).splitlines()[1].startswith("Everyone has the right to take part in the government")


def test_scripts_come_from_the_tag_else_from_the_letters() -> None:
    by_code = {d.code: d for d in udhr.declarations()}
    assert by_code["srp_cyrl"].script == "Cyrl" and by_code["srp_latn"].script == "Latn"  # BCP 47 subtags
    assert {by_code[c].script for c in ("jpn", "tha", "bod", "amh", "mya", "hin")} == {"Jpan", "Thai", "Tibt", "Ethi", "Mymr", "Deva"}
    tagged = [d for d in by_code.values() if "-" not in d.bcp47]
    assert all(d.script == text_script(d.text) for d in tagged)


def test_languages_are_found_by_code_iso_tag_or_name() -> None:
    assert [d.code for d in udhr.find("deu")] == ["deu_1901", "deu_1996"]
    assert [d.code for d in udhr.find("ko")] == ["kor"] and [d.code for d in udhr.find("korean")] == ["kor"]
    assert [d.code for d in udhr.select(["kor", "kor", "hin"])] == ["kor", "hin"]
    with pytest.raises(ConfigError, match="did you mean.*kor"):
        udhr.select(["kore"])


def test_importing_reads_nothing() -> None:
    """No start-up cost when unused: importing the CLI and the languages package reads no data."""
    code = (
        "import bpe_cli.main, bpe_engine.metrics.languages.udhr as u; bpe_cli.main.build_parser();"
        "print(u.declarations.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0"]
