"""HF's ``Precompiled`` normaliser: SentencePiece's compiled character map, applied HF's way.

The charsmap -- a double-array trie from UTF-8 keys to replacement strings -- is read by the
SentencePiece engine (:class:`bpe_engine.sentencepiece.normalizer.PrecompiledCharsmap`). HF does not
apply it as SentencePiece does (longest rule at each position): it walks extended grapheme clusters
and replaces a cluster shorter than 6 bytes by the replacement of the *shortest* rule that is a
prefix of it, else each character by its own (``tokenizers/src/normalizers/precompiled.rs``, whose
comment says it matches Google's models on XNLI; bug for bug is what gives HF's ids). Changes for
the alignments follow HF's ``replace``: a longer replacement inserts its extra characters at the
end, a shorter one folds the removal into the last change so far.

Without the SentencePiece engine the normaliser is refused by name, never approximated.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

import regex

from ..errors import ConfigError
from .normalized import NormalizedString
from .schema import Node

_GRAPHEME = regex.compile(r"\X")


class Precompiled:
    """``Precompiled``: see the module docstring."""

    def __init__(self, charsmap: Any) -> None:
        self.charsmap = charsmap
        self._lookup: dict[str, str | None] = {}
        self._graphemes: dict[str, str] = {}

    def _transform(self, chunk: str) -> str | None:
        found = self._lookup.get(chunk, self)
        if isinstance(found, Precompiled):  # the default, self: not looked up yet
            found = self._lookup[chunk] = self.charsmap.transform(chunk)
        return found

    def _grapheme(self, g: str) -> str:
        out = self._graphemes.get(g)
        if out is None:
            whole = self._transform(g) if len(g.encode("utf-8", "surrogatepass")) < 6 else None
            if whole is not None:
                out = whole
            else:
                out = "".join(c if (t := self._transform(c)) is None else t for c in g)  # "" deletes
            self._graphemes[g] = out
        return out

    def normalize_str(self, text: str) -> str:
        return "".join(map(self._grapheme, _GRAPHEME.findall(text)))

    def normalize(self, ns: NormalizedString) -> None:
        changes: list[tuple[str, int]] = []
        modified = False
        for g in _GRAPHEME.findall(ns.text):
            whole = self._transform(g) if len(g.encode("utf-8", "surrogatepass")) < 6 else None
            if whole is not None:
                modified = True
                _replace(changes, g, whole)
                continue
            for c in g:
                norm = self._transform(c)
                if norm is not None:
                    modified = True
                    _replace(changes, c, norm)
                else:
                    changes.append((c, 0))
        if modified:
            ns.transform(changes)


def _replace(changes: list[tuple[str, int]], old: str, new: str) -> None:
    """HF's ``replace`` helper, quirks included."""
    diff = len(new) - len(old)
    changes.extend((c, 0) for c in new)
    if diff > 0:
        for k in range(len(changes) - diff, len(changes)):
            changes[k] = (changes[k][0], 1)
    elif diff < 0 and changes:
        c, change = changes[-1]
        changes[-1] = (c, change + diff)


def precompiled_normalizer(node: Node) -> Precompiled:
    try:
        from ..sentencepiece.normalizer import PrecompiledCharsmap
    except ImportError:
        node.fail(
            "normalizer 'Precompiled' (SentencePiece's compiled character map) needs the SentencePiece engine "
            "(bpe_engine.sentencepiece), which this installation does not have yet"
        )
    encoded = node.str("precompiled_charsmap")
    try:
        blob = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        node.child("precompiled_charsmap").fail("is not valid base64")
    try:
        return Precompiled(PrecompiledCharsmap.from_bytes(blob))
    except ConfigError as exc:
        node.child("precompiled_charsmap").fail(str(exc))
