"""What HF does to one encoded sequence after the model: post-processors, truncation, padding.

All act on a list of :class:`TokenRecord` (one per token, with HF's character offsets and our byte
span). Only single sequences exist here (no pairs): ``TemplateProcessing`` uses its ``single``
template, ``BertProcessing`` and ``RobertaProcessing`` wrap the sequence in their two tokens, and
all of them add tokens only when ``add_special_tokens`` is true -- HF's default for ``encode``.
``ByteLevel``/``RobertaProcessing`` with ``trim_offsets`` move whitespace out of the offsets (ids
never change). Truncation and padding, when a file sets them, are applied as HF's ``encode`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..core.byte_table import BYTE_TO_CHAR
from ..wordpiece.bert_normalizer import WHITE_SPACE

_SPACE_CHAR = BYTE_TO_CHAR[ord(" ")]


@dataclass
class TokenRecord:
    """One token of an encoding: id, string, HF offsets (characters), byte span, special and
    unknown flags (an unknown piece's ``symbol`` is the text it stands for)."""

    id: int
    token: str
    offsets: tuple[int, int]
    span: tuple[int, int]
    special: bool = False
    unknown: bool = False
    symbol: str = ""


def _added(token_id: int, token: str) -> TokenRecord:
    return TokenRecord(token_id, token, (0, 0), (0, 0), True)


class PostProcessor(Protocol):
    def added_tokens(self) -> int: ...

    def process(self, records: list[TokenRecord], add_special_tokens: bool) -> list[TokenRecord]: ...


def trim_offsets(records: list[TokenRecord], add_prefix_space: bool) -> None:
    """HF ``process_offsets``: leading/trailing ``Ġ``/whitespace of a token leave its offsets."""
    for i, rec in enumerate(records):
        token = rec.token
        lead = len(token) - len(token.lstrip(_SPACE_CHAR + "".join(WHITE_SPACE)))
        trail = len(token) - len(token.rstrip(_SPACE_CHAR + "".join(WHITE_SPACE)))
        start, end = rec.offsets
        if lead:
            if (i == 0 or start == 0) and add_prefix_space and lead == 1:
                lead = 0
            start = min(start + lead, end)
        if trail and end >= trail:
            end = max(end - trail, start)
        rec.offsets = (start, end)


@dataclass(frozen=True)
class ByteLevelProcessor:
    """``ByteLevel`` post-processor: offset trimming only."""

    trim_offsets: bool = True
    add_prefix_space: bool = True

    def added_tokens(self) -> int:
        return 0

    def process(self, records: list[TokenRecord], add_special_tokens: bool) -> list[TokenRecord]:
        if self.trim_offsets:
            trim_offsets(records, self.add_prefix_space)
        return records


@dataclass(frozen=True)
class WrapProcessor:
    """``BertProcessing`` / ``RobertaProcessing``: ``cls`` before, ``sep`` after."""

    cls: tuple[str, int]
    sep: tuple[str, int]
    trim: bool = False
    add_prefix_space: bool = False

    def added_tokens(self) -> int:
        return 2

    def process(self, records: list[TokenRecord], add_special_tokens: bool) -> list[TokenRecord]:
        if self.trim:
            trim_offsets(records, self.add_prefix_space)
        if not add_special_tokens:
            return records
        return [_added(self.cls[1], self.cls[0]), *records, _added(self.sep[1], self.sep[0])]


@dataclass(frozen=True)
class TemplateProcessor:
    """``TemplateProcessing`` (single): ``None`` marks where the sequence goes, else a special's tokens."""

    template: Sequence[tuple[tuple[str, int], ...] | None]

    def added_tokens(self) -> int:
        return sum(len(p) for p in self.template if p is not None)

    def process(self, records: list[TokenRecord], add_special_tokens: bool) -> list[TokenRecord]:
        if not add_special_tokens:
            return records
        out: list[TokenRecord] = []
        for piece in self.template:
            if piece is None:
                out += records
            else:
                out += [_added(i, t) for t, i in piece]
        return out


@dataclass(frozen=True)
class SequenceProcessor:
    """``Sequence``: processors in order."""

    processors: Sequence[PostProcessor]

    def added_tokens(self) -> int:
        return sum(p.added_tokens() for p in self.processors)

    def process(self, records: list[TokenRecord], add_special_tokens: bool) -> list[TokenRecord]:
        for p in self.processors:
            records = p.process(records, add_special_tokens)
        return records


@dataclass(frozen=True)
class Truncation:
    """A file's ``truncation``: at most ``max_length`` tokens, cut on the right or the left."""

    max_length: int
    left: bool = False

    def apply(self, records: list[TokenRecord], added: int) -> list[TokenRecord]:
        keep = max(self.max_length - added, 0)
        if len(records) <= keep:
            return records
        return records[len(records) - keep :] if self.left else records[:keep]


@dataclass(frozen=True)
class Padding:
    """A file's ``padding``: up to a fixed length (or none for one sequence), to a multiple, by a pad."""

    pad_id: int
    pad_token: str
    fixed: int | None = None
    multiple_of: int | None = None
    left: bool = False

    def apply(self, records: list[TokenRecord]) -> list[TokenRecord]:
        target = self.fixed if self.fixed is not None else len(records)
        if self.multiple_of and target % self.multiple_of:
            target += self.multiple_of - target % self.multiple_of
        missing = target - len(records)
        if missing <= 0:
            return records
        pads = [_added(self.pad_id, self.pad_token) for _ in range(missing)]
        return pads + records if self.left else records + pads
