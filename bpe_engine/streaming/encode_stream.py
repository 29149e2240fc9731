"""Encoding a text of any size in bounded memory: read it in blocks cut where no token can cross.

``encode`` of 10 MB held the text, every token's details and the whole JSON at once (2.5 GB
resident). A tokenizer gives the ids of the whole text when the text is cut into parts and each
part is encoded alone only where no token crosses the cut, and each tokenizer declares where
that is (:class:`~bpe_engine.types.Capabilities`):

- ``space_safe``: before a plain space that follows a letter or digit (the GPT-2, cl100k, o200k,
  Tekken and end-of-word pre-tokenizers with no normaliser before them);
- ``line_safe``: at a line start, after a ``\\n`` between two non-space characters (BERT's
  WordPiece too, whose normaliser keeps nothing across a line break).

Those are the cut points of :class:`~bpe_engine.corpus.blocks.CutRule` (the one cutter the
corpus counting uses too), so :func:`text_blocks` is :func:`~bpe_engine.corpus.blocks.stream_blocks`
decoded. A tokenizer that declares neither (SentencePiece, a Hugging Face ``tokenizer.json``, the
``▁`` pre-tokenizer, a custom regex), or that adds tokens of its own to every text (``<s>``), is
never cut: its input is one block, bounded like any stretch without a cut point --
:data:`ENCODE_BYTES_PER_BYTE` of memory per byte of it against the memory budget -- and past the
bound reading stops with one line (:class:`~bpe_engine.corpus.table_size.UncutTooLarge`) before
the stretch is read.

>>> from bpe_engine.catalog.openai import load_reference
>>> import io
>>> tok = load_reference("cl100k_base")
>>> rule = encode_cut_rule(tok)
>>> [b.text for b in text_blocks("t", io.BytesIO(b"one two three"), rule, block_bytes=4)]
['one two', ' three']
>>> [encode_ids(tok, b.text, "text")[0] for b in text_blocks("t", io.BytesIO(b"one two three"), rule, block_bytes=4)]
[[606, 1403], [2380]]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any, NamedTuple

from ..corpus.blocks import BLOCK_BYTES, CutRule, stream_blocks
from ..corpus.table_size import uncut_limit, uncut_too_large
from ..errors import ConfigError, UnknownSymbolError
from ..types import SpecialMode

ENCODE_BLOCK_BYTES = BLOCK_BYTES
"""Nominal block size: 1 MB of English is ~250,000 tokens, ~90 MB resident while its ``--json`` is
made (204 MB in all for 10 MB of input, against 2.5 GB for the whole text at once)."""

ENCODE_BYTES_PER_BYTE = 320
"""Bytes of memory per byte of a block encoded with every token's details while its ``--json`` is
written, measured on 2 MB of English held as one block: ~45 for cl100k, ~110 for BERT's WordPiece,
~200 for Mistral's SentencePiece, ~315 for a Hugging Face ``tokenizer.json`` (claude-legacy). The
largest bounds a stretch with no cut point: the budget / 320 bytes (64 MB of text in 20 GB)."""


@dataclass(frozen=True)
class EncodeCuts(CutRule):
    """A :class:`CutRule` for encoding: its messages speak of encoding, not of counting."""

    tokenizer_name: str = ""

    @property
    def why_uncut(self) -> str:
        if not self.can_cut:
            return f"{self.tokenizer_name} is encoded only whole: its tokens may cross any line break or space"
        return super().why_uncut

    @property
    def ways_to_cut(self) -> str:
        return "" if self.lines else "cut the text at line breaks yourself and encode the parts (--jsonl: one line each)"

    def check_span(self, name: str, offset: int, span: int, *, exact: bool = False) -> None:
        if self.max_span and span > self.max_span:
            raise uncut_too_large(
                name, offset, span, self.max_span, why=self.why_uncut, ways=self.ways_to_cut, exact=exact,
                per_byte=ENCODE_BYTES_PER_BYTE, held="encoded whole",
            )  # fmt: skip


def encode_cut_rule(
    tokenizer: Any, *, budget: int | None = None, lines: bool = False, add_special_tokens: bool = True
) -> EncodeCuts:
    """Where ``tokenizer`` may be cut (see the module docstring); ``lines``: after every ``\\n``
    instead, for texts whose lines are encoded apart. ``budget``: bytes of memory a block may
    use (None: no bound). No cut falls inside special-token text, in any special mode: the note
    and the refusal see it whole."""
    caps = tokenizer.capabilities
    whole = caps.adds_specials and add_special_tokens and not lines  # "<s> a" + "<s> b" is not "<s> a b"
    spaces = caps.space_safe and not whole and not lines
    line_starts = caps.line_safe and not whole and not lines
    # Only a special holding a space or a newline can straddle a cut; checking the others (Whisper
    # has 1,608) at every space would cost more than the encoding.
    specials = tuple(s.encode("utf-8") for s in tokenizer.special_tokens if (" " in s or "\n" in s) and _encodable(s))
    max_span = uncut_limit(budget, ENCODE_BYTES_PER_BYTE) if budget is not None else 0
    return EncodeCuts(lines, spaces, specials, max_span, line_starts, tokenizer_name=tokenizer.name)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class TextBlock(NamedTuple):
    """One block of the input: its text, its UTF-8 bytes, where they start in the input."""

    text: str
    data: bytes
    offset: int
    at_end: bool


def text_blocks(name: str, handle: IO[bytes], rule: CutRule, block_bytes: int | None = None) -> Iterator[TextBlock]:
    """The input read ``block_bytes`` at a time and cut at ``rule``'s cut points, decoded; bytes
    that are not UTF-8 stop it with one line naming ``name`` and the offset. Every cut falls
    between two characters (after a ``\\n``, before a space), so each block decodes alone.
    ``block_bytes``: the nominal block size (default :data:`ENCODE_BLOCK_BYTES`, read at each call)."""
    for block in stream_blocks(name, handle, rule, block_bytes or ENCODE_BLOCK_BYTES):
        try:
            text = block.data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ConfigError(
                f"{name} is not valid UTF-8 (byte {block.data[exc.start]:#04x} at offset {block.offset + exc.start}); "
                "encode takes text -- convert it first, e.g. with iconv"
            ) from None
        if block.data or block.at_end:
            yield TextBlock(text, block.data, block.offset, block.at_end)


def encode_ids(
    tokenizer: Any, text: str, special_mode: SpecialMode, add_special_tokens: bool = True
) -> tuple[list[int], tuple[str, ...]]:
    """The ids of ``text`` and what to say about them. ``encode`` has no id to return for an unknown
    piece without one, so such a text goes through ``encode_detailed``: its piece gets
    :data:`~bpe_engine.types.UNKNOWN_ID` and its note says why."""
    try:
        return tokenizer.encode(text, special_mode=special_mode, add_special_tokens=add_special_tokens), ()
    except UnknownSymbolError:
        encoding = tokenizer.encode_detailed(text, special_mode=special_mode, add_special_tokens=add_special_tokens)
        return list(encoding.ids), encoding.notes
