"""A SentencePiece Unigram model as a Hugging Face ``tokenizer.json`` (what HF's ``SpmConverter``
makes of a ``.model``): the model's precompiled charsmap (``Precompiled``), runs of spaces folded
and the ends stripped (SentencePiece's ``remove_extra_whitespaces``), ``Metaspace`` (``▁`` for
spaces, one in front, split at each), the ``Unigram`` model with the same pieces, scores and ids,
and special pieces as added tokens. HF keeps path scores in doubles where SentencePiece keeps
floats, so a near tie in a word can go the other way (rare).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence

from ..sentencepiece.model_proto import NormalizerSettings, PieceType


def unigram_tokenizer_json(
    pieces: Sequence[tuple[str, float]],
    types: Sequence[PieceType],
    normalizer: NormalizerSettings,
    *,
    unk_id: int,
    byte_fallback: bool = False,
) -> str:
    norms: list[dict] = []
    if normalizer.charsmap:
        norms.append({"type": "Precompiled", "precompiled_charsmap": base64.b64encode(normalizer.charsmap).decode()})
    if normalizer.remove_extra_whitespaces:
        norms.append({"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "})
        norms.append({"type": "Strip", "strip_left": True, "strip_right": True})
    prepend = "always" if normalizer.add_dummy_prefix else "never"
    added = [
        {"id": i, "content": p, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
        for i, ((p, _s), t) in enumerate(zip(pieces, types, strict=True))
        if t in (PieceType.CONTROL, PieceType.UNKNOWN)
    ]
    doc = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "Sequence", "normalizers": norms} if norms else None,
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": prepend, "split": True},
        "post_processor": None,
        "decoder": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": prepend, "split": True},
        "model": {"type": "Unigram", "unk_id": unk_id, "vocab": [[p, s] for p, s in pieces], "byte_fallback": byte_fallback},
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
