"""SentencePiece's detailed encoding (what ``encode --json``, ``inspect`` and the app read) is
linear in the text: each byte-fallback piece looked for the other bytes of its character in the
whole rest of the encoding, so ``encode --json`` with mistral-v1 took 2.9 s on 140 KB and 9.5 s on
279 KB. Work is counted (entries of the encoding touched), not timed."""

from __future__ import annotations

from typing import Any

import pytest

from bpe_engine.sentencepiece import load_model
from bpe_engine.sentencepiece import tokenizer as sp_tokenizer
from tests.sentencepiece_builds import sp_builds  # noqa: F401 - the fixture


class Touched(list):  # type: ignore[type-arg]
    """A list that counts the entries read from it (by index, by slice, by iteration)."""

    count = 0

    def __getitem__(self, key: Any) -> Any:
        got = super().__getitem__(key)
        Touched.count += len(got) if isinstance(key, slice) else 1
        return got

    def __iter__(self) -> Any:
        for item in super().__iter__():
            Touched.count += 1
            yield item


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The detailed encoding's entries come in a :class:`Touched` list."""
    report = sp_tokenizer.SentencePieceTokenizer._report  # noqa: SLF001
    monkeypatch.setattr(sp_tokenizer.SentencePieceTokenizer, "_report", lambda self, *a: Touched(report(self, *a)))


def touched(tok: Any, text: str) -> int:
    Touched.count = 0
    tok.encode_detailed(text)
    return Touched.count


@pytest.mark.parametrize("name", ["bpe-bytes-digits-identity", "uni-bytes-digits-identity"])
def test_byte_fallback_pieces_cost_the_same_per_character_at_any_length(sp_builds, name: str, counted: None) -> None:  # noqa: F811
    tok = load_model(sp_builds[name].path)
    text = "the 🙂 cat ☃ sat 🐈 " * 500  # characters the model spells with byte pieces
    assert sum(tok.encode_detailed(text[:20]).ids.count(i) for i in range(3, 259)) >= 8  # byte pieces are there
    small, large = touched(tok, text), touched(tok, text * 2)
    assert large <= 2.2 * small, f"{small:,} entries read for the text, {large:,} for twice the text"
