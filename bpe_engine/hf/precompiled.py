"""HF's ``Precompiled`` normaliser (SentencePiece's compiled character map).

The charsmap itself -- a double-array trie over UTF-8 with the replacement strings -- is read by the
SentencePiece engine (:mod:`bpe_engine.sentencepiece.normalizer`). Until that engine is part of
this installation the normaliser is refused by name, never approximated.
"""

from __future__ import annotations

from typing import Any

from .schema import Node


def precompiled_normalizer(node: Node) -> Any:
    try:
        from ..sentencepiece.normalizer import PrecompiledCharsmap  # noqa: F401
    except ImportError:
        node.fail(
            "normalizer 'Precompiled' (SentencePiece's compiled character map) needs the SentencePiece engine "
            "(bpe_engine.sentencepiece), which this installation does not have yet"
        )
    node.fail("normalizer 'Precompiled' is not supported yet")
