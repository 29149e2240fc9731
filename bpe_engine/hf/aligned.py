"""The aligned path of :class:`.HfTokenizer`: every token with HF's offsets and our byte span.

HF's ``encode`` as data flow over :class:`.NormalizedString` splits: raw added tokens cut out,
the rest normalised, normalised added tokens cut out, pre-tokenization, the model on each piece.
A token's offsets are its characters' alignments (first start, last end: HF's
``convert_offsets``); its byte span is the same range in UTF-8, narrowed to the exact bytes when
ByteLevel split an unchanged original character (see ``NormalizedString.sub``).

Lone surrogates, which HF cannot receive at all, are replaced by U+FFFD one for one (as the
inspector does), so character offsets are unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.text_index import TextIndex, clean_text
from ..types import UNKNOWN_ID
from .added_tokens import AddedToken
from .normalized import NormalizedString
from .post_processors import TokenRecord

if TYPE_CHECKING:
    from .pipeline import HfTokenizer

Split = tuple[NormalizedString, AddedToken | None]


def normalized_splits(tok: HfTokenizer, text: str, skip_special: bool) -> list[Split]:
    """Added tokens and normalised text parts, in order (HF ``extract_and_normalize``)."""
    p = tok.pipeline
    root = NormalizedString.from_text(text)
    first: list[Split] = []
    for token, s, e in p.added.find(text, normalized=False, skip_special=skip_special):
        if e > s:
            first.append((root.slice(s, e), token))
    out: list[Split] = []
    for ns, token in first:
        if token is not None:
            out.append((ns, token))
            continue
        if p.normalizer is not None:
            p.normalizer.normalize(ns)
        for token2, s, e in p.added.find(ns.text, normalized=True, skip_special=skip_special):
            if e > s:
                out.append((ns.slice(s, e), token2))
    return out


def pre_tokenized(tok: HfTokenizer, ns: NormalizedString, original: str) -> list[NormalizedString]:
    """The pieces the model encodes, from one normalised part."""
    pieces = [ns]
    for stage in tok._stages:
        pieces = stage.split_aligned(pieces, original)
    return pieces


def aligned_records(tok: HfTokenizer, text: str, skip_special: bool) -> tuple[list[TokenRecord], int]:
    """Every token of ``text`` before post-processing (see the module docstring), and how many
    characters the model left out (unknown, with no unknown token to stand for them: HF drops them)."""
    text = clean_text(text).text
    starts = TextIndex(text).char_byte_starts
    model = tok.pipeline.model
    unk_id = model.unk_id
    records: list[TokenRecord] = []
    dropped = 0
    for ns, token in normalized_splits(tok, text, skip_special):
        if token is not None:
            a, b = ns.original_span(0, len(ns.text))
            # HF's token string is the matched text, stripped whitespace included (trim_offsets reads it)
            records.append(TokenRecord(token.id, ns.text, (a, b), (starts[a], starts[b]), token.special))
            continue
        for piece in pre_tokenized(tok, ns, text):
            covered = 0
            for token_id, cs, ce in model.tokenize(piece.text):
                covered += ce - cs
                unknown = token_id == unk_id or token_id == UNKNOWN_ID
                records.append(
                    TokenRecord(
                        token_id,
                        model.id_to_token.get(token_id, ""),
                        piece.original_span(cs, ce),
                        byte_span(piece, cs, ce, starts),
                        unknown=unknown,
                        symbol=piece.text[cs:ce] if unknown else "",
                    )
                )
            dropped += max(len(piece.text) - covered, 0)
    return records, dropped


def byte_span(piece: NormalizedString, cs: int, ce: int, starts: Sequence[int]) -> tuple[int, int]:
    """UTF-8 span in the original text of the piece's characters ``[cs, ce)``."""
    if cs >= ce:
        a, b = piece.original_span(cs, ce)
        return starts[min(a, len(starts) - 1)], starts[min(b, len(starts) - 1)]
    sub = piece.sub
    first, last = piece.align[cs], piece.align[ce - 1]
    start = starts[first[0]] + (sub[cs] or 0 if sub is not None else 0)
    last_sub = sub[ce - 1] if sub is not None else None
    if last_sub is not None:
        end = starts[last[0]] + last_sub + 1
    else:
        end = starts[last[1]]
    return start, end


def unknown_notes(tok: HfTokenizer, records: list[TokenRecord], dropped: int) -> list[str]:
    """What the user should know about unknown pieces and dropped characters of an encoding."""
    notes = []
    unknown = sum(r.unknown for r in records)
    if unknown:
        unk = tok.pipeline.model.unk_token
        notes.append(f"{unknown} piece(s) are not in the vocabulary of {tok.name!r}: encoded as its unknown token {unk!r}")
    if dropped:
        notes.append(
            f"{dropped} character(s) are not in the vocabulary of {tok.name!r}, which has no unknown token: "
            "Hugging Face leaves them out of the encoding, and so does bpe-explorer"
        )
    return notes
