"""HF decoders: token strings back to text (``tokenizers/src/decoders``).

Each decoder maps the list of token strings to a new list (HF's ``decode_chain``); the text is the
final list joined. Without a decoder HF joins the tokens with spaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Protocol

from ..core.byte_table import CHAR_TO_BYTE
from ..wordpiece.model import wordpiece_cleanup
from .normalizers import Replace


class DecoderStage(Protocol):
    """One decoding stage: token strings in, token strings out (see the module docstring)."""

    def decode_chain(self, tokens: list[str]) -> list[str]: ...


class ByteLevelDecoder:
    """``ByteLevel``: GPT-2 byte characters back to bytes, the whole output decoded as UTF-8 (lossy).

    A token with a character outside the byte table contributes its own UTF-8 (added tokens).
    """

    def decode_chain(self, tokens: list[str]) -> list[str]:
        data = bytearray()
        for token in tokens:
            try:
                data += bytes(CHAR_TO_BYTE[c] for c in token)
            except KeyError:
                data += token.encode("utf-8", "surrogatepass")
        return [data.decode("utf-8", "replace")]


@dataclass(frozen=True)
class MetaspaceDecoder:
    """``Metaspace``: the replacement back to spaces; the first token's are dropped unless ``never``."""

    replacement: str = "\u2581"
    prepend_scheme: str = "always"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for i, token in enumerate(tokens):
            space = "" if i == 0 and self.prepend_scheme != "never" else " "
            out.append(token.replace(self.replacement, space))
        return out


@dataclass(frozen=True)
class WordPieceDecoder:
    """``WordPiece``: prefix pieces glue to the one before, others get a space; optional clean-up."""

    prefix: str = "##"
    cleanup: bool = True

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for i, token in enumerate(tokens):
            if i:
                token = token[len(self.prefix) :] if token.startswith(self.prefix) else " " + token
            out.append(wordpiece_cleanup(token) if self.cleanup else token)
        return out


@dataclass(frozen=True)
class BpeSuffixDecoder:
    """``BPEDecoder``: the end-of-word suffix becomes a space, except on the last token."""

    suffix: str = "</w>"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        last = len(tokens) - 1
        return [t.replace(self.suffix, "" if i == last else " ") for i, t in enumerate(tokens)]


class ByteFallbackDecoder:
    """``ByteFallback``: runs of ``<0xNN>`` tokens become their UTF-8 text, or one U+FFFD per byte."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out: list[str] = []
        pending = bytearray()
        for token in tokens:
            byte = _byte_token(token)
            if byte is not None:
                pending.append(byte)
                continue
            if pending:
                out += _flush(pending)
                pending.clear()
            out.append(token)
        if pending:
            out += _flush(pending)
        return out


def _byte_token(token: str) -> int | None:
    if len(token) == 6 and token.startswith("<0x") and token.endswith(">"):
        try:
            return int(token[3:5], 16)
        except ValueError:
            return None
    return None


def _flush(data: bytearray) -> list[str]:
    try:
        return [bytes(data).decode("utf-8")]
    except UnicodeDecodeError:
        return ["\ufffd"] * len(data)


class FuseDecoder:
    """``Fuse``: all tokens joined into one."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return ["".join(tokens)]


@dataclass(frozen=True)
class StripDecoder:
    """``Strip``: up to ``start`` leading and ``stop`` trailing ``content`` characters off each token."""

    content: str = " "
    start: int = 0
    stop: int = 0

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for token in tokens:
            begin = 0
            while begin < min(self.start, len(token)) and token[begin] == self.content:
                begin += 1
            end = len(token)
            while len(token) - end < self.stop and end > begin and token[end - 1] == self.content:
                end -= 1
            out.append(token[begin:end])
        return out


@dataclass(frozen=True)
class ReplaceDecoder:
    """``Replace``: the normaliser's pattern rule, per token."""

    replace: Replace

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return [self.replace.normalize_str(t) for t in tokens]


@dataclass(frozen=True)
class CtcDecoder:
    """``CTC``: repeated tokens collapsed, pad removed, word delimiter to a space (with clean-up)."""

    pad_token: str = "<pad>"
    word_delimiter_token: str = "|"
    cleanup: bool = True

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for token, _ in groupby(tokens):
            token = token.replace(self.pad_token, "")
            if self.cleanup:
                token = wordpiece_cleanup(token).replace(self.word_delimiter_token, " ")
            if token:
                out.append(token)
        return out


@dataclass(frozen=True)
class SequenceDecoder:
    """``Sequence``: decoders applied in order."""

    decoders: Sequence[DecoderStage]

    def decode_chain(self, tokens: list[str]) -> list[str]:
        for decoder in self.decoders:
            tokens = decoder.decode_chain(tokens)
        return tokens
