"""Every tokenizer.json normaliser against Hugging Face: the text, and the alignment of each character.

The alignment probe is a byte-level BPE without merges: every byte of the normalised text is one
token, so HF's offsets are exactly the normaliser's alignments.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from tokenizers import Regex
from tokenizers import normalizers as N

from bpe_engine.hf.normalized import NormalizedString
from tests.hf_oracle import TRICKY, alignment_probe, assert_parity, ours, texts

NORMALIZERS = {
    "NFC": N.NFC(),
    "NFD": N.NFD(),
    "NFKC": N.NFKC(),
    "NFKD": N.NFKD(),
    "Lowercase": N.Lowercase(),
    "Strip": N.Strip(),
    "StripLeft": N.Strip(left=True, right=False),
    "StripAccents": N.Sequence([N.NFD(), N.StripAccents()]),
    "StripAccentsAlone": N.StripAccents(),
    "ReplaceString": N.Replace(" ", "\u2581"),
    "ReplaceLong": N.Replace("an", "XYZ"),
    "ReplaceRegex": N.Replace(Regex(r"\s+"), " "),
    "ReplaceEmpty": N.Replace(Regex(r"[aeiou]"), ""),
    "Prepend": N.Prepend("\u2581"),
    "Bert": N.BertNormalizer(),
    "BertCased": N.BertNormalizer(lowercase=False, strip_accents=False, handle_chinese_chars=True),
    "Nmt": N.Nmt(),
    "ByteLevel": N.ByteLevel(),
    "Sequence": N.Sequence([N.NFKC(), N.Lowercase(), N.Prepend("\u2581"), N.Replace(" ", "\u2581")]),
}


@pytest.mark.parametrize("name", sorted(NORMALIZERS))
def test_normaliser_text_and_alignment_equal_hf(name: str, alice_text: str, korean_text: str) -> None:
    normalizer = NORMALIZERS[name]
    probe = alignment_probe(normalizer)
    tok = ours(probe)
    for text in [*TRICKY, alice_text[:3000], korean_text[:1500]]:
        expected = normalizer.normalize_str(text)
        assert tok.pipeline.normalizer.normalize_str(text) == expected
        ns = NormalizedString.from_text(text)
        tok.pipeline.normalizer.normalize(ns)
        assert ns.text == expected
        assert_parity(probe, tok, text)


@settings(max_examples=60)
@given(texts)
def test_normalisers_on_any_text(text: str) -> None:
    for name in ("NFKC", "NFD", "Bert", "Sequence", "StripAccents", "ReplaceRegex"):
        probe = alignment_probe(NORMALIZERS[name])
        assert_parity(probe, _cached(name, probe), text)


_OURS: dict[str, object] = {}


def _cached(name: str, probe):  # type: ignore[no-untyped-def]
    if name not in _OURS:
        _OURS[name] = ours(probe)
    return _OURS[name]


def test_unicode_forms_match_hf_where_python_unicode_is_newer() -> None:
    """Characters Unicode added after HF's tables (9.0): HF leaves them alone, and so do we."""
    for text in ["\u32ff", "\U00011935\U00011930", "a\u07fd\u0301", "x\ua7f2", "\u1cf2\u0301"]:
        for form in (N.NFC(), N.NFD(), N.NFKC(), N.NFKD()):
            probe = alignment_probe(form)
            assert_parity(probe, ours(probe), text)


class _DeletesLoneAcute:
    """A charsmap whose only rule deletes U+0301 (custom SentencePiece rules can delete characters)."""

    def transform(self, chunk: str) -> str | None:
        return "" if chunk == "\u0301" else None


def test_precompiled_deletes_inside_a_long_grapheme_on_both_paths() -> None:
    # A cluster of 6+ bytes is mapped character by character (HF precompiled.rs); a rule mapping to ""
    # deletes the character there too -- the string path once kept it ("" is falsy).
    from bpe_engine.hf.precompiled import Precompiled

    norm = Precompiled(_DeletesLoneAcute())
    text = "x e\u0301\u0301\u0301 y"
    ns = NormalizedString.from_text(text)
    norm.normalize(ns)
    assert norm.normalize_str(text) == ns.text == "x e y"
