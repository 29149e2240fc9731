"""What the explorer reads from an :class:`.HfTokenizer`: its pieces, and the stages a text went through.

* :class:`PipelinePieces` looks like a :class:`bpe_engine.pretokenizers.PreTokenizer` to the
  stepper: ``pieces(text)`` gives the pieces the model would encode -- normalised and pre-tokenized,
  before the byte mapping of a byte-level model (the stepper applies that itself) -- with their
  character spans in the original text. Added tokens are not pieces.
* :func:`trace` is the Inspect view of the pipeline: the normalised text, the pre-tokenized
  pieces and the model's tokens, each with where it came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.byte_table import token_str_to_bytes
from .aligned import normalized_splits, pre_tokenized
from .post_processors import TokenRecord

if TYPE_CHECKING:
    from .pipeline import HfTokenizer


class PipelinePieces:
    """The stepper's view of an HF pipeline's pre-tokenization (see the module docstring)."""

    pattern = None
    space_marker = None
    keeps_unmatched = True
    safe_to_cut = False  # normalisation and added tokens may cross any cut
    trusted = False
    line_safe = False
    tiktoken_compatible = False
    end_of_word = "attached"  # HF's end_of_word_suffix is glued to the last character

    def __init__(self, tok: HfTokenizer) -> None:
        self._tok = tok
        self.name = f"{tok.name} pipeline"
        self.description = "the tokenizer.json's normaliser and pre-tokenizer"
        self.end_of_word_suffix = tok.pipeline.model.suffix or None

    def pieces(self, text: str) -> list[tuple[str, int, int]]:
        fast = self._substring_pieces(text)
        return fast if fast is not None else self._aligned_pieces(text)

    def _substring_pieces(self, text: str) -> list[tuple[str, int, int]] | None:
        """The pieces without alignments, when they are plain substrings of the text (nothing
        normalised, nothing inserted): located by search, at fast-path speed. None otherwise."""
        tok, p = self._tok, self._tok.pipeline
        if not p.fast_path:
            return None
        out: list[tuple[str, int, int]] = []
        for token, start, end in p.added.find(text, normalized=False, skip_special=False):
            segment = text[start:end]
            if token is not None or not segment:
                continue
            if p.normalizer is not None and p.normalizer.normalize_str(segment) != segment:
                return None
            for token2, s, e in p.added.find(segment, normalized=True, skip_special=False):
                if token2 is not None or e <= s:
                    continue
                part, cursor = segment[s:e], 0
                for piece in tok.pre_pieces(part, start == 0 and s == 0, map_bytes=False):
                    at = part.find(piece, cursor)
                    if at < 0:
                        return None  # a stage rewrote the text (a marker, a prefix space)
                    out.append((piece, start + s + at, start + s + at + len(piece)))
                    cursor = at + len(piece)
        return out

    def _aligned_pieces(self, text: str) -> list[tuple[str, int, int]]:
        out: list[tuple[str, int, int]] = []
        for ns, token in normalized_splits(self._tok, text, skip_special=False):
            if token is not None:
                continue
            for piece in pre_tokenized(self._tok, ns, text):
                if piece.text:
                    out.append((self._unmapped(piece.text), piece.start, piece.end))
        return out

    def split_with_spans(self, text: str) -> list[tuple[str, int, int]]:
        return self.pieces(text)

    def split(self, text: str) -> list[str]:
        return [piece for piece, _, _ in self.pieces(text)]

    def splitter(self) -> Any:
        return self.split

    def decode_text(self, text: str) -> str:
        return text

    def _unmapped(self, piece: str) -> str:
        """A byte-level piece back to text (the stepper maps bytes to symbols itself)."""
        if not self._tok.byte_level:
            return piece
        try:
            return token_str_to_bytes(piece).decode("utf-8", "surrogatepass")
        except (KeyError, UnicodeDecodeError):
            return piece


@dataclass(frozen=True)
class StageTrace:
    """One text through the pipeline: each stage's output with original character spans."""

    normalized: tuple[tuple[str, int, int], ...]  # normalised parts (added tokens as themselves)
    pieces: tuple[tuple[str, int, int], ...]  # pre-tokenized pieces, in the model's alphabet
    tokens: tuple[TokenRecord, ...]  # after the model and post-processing


def trace(tok: HfTokenizer, text: str, *, add_special_tokens: bool = True) -> StageTrace:
    """What ``text`` looks like after each stage (added tokens matched as HF's ``encode`` does)."""
    normalized: list[tuple[str, int, int]] = []
    pieces: list[tuple[str, int, int]] = []
    for ns, token in normalized_splits(tok, text, skip_special=False):
        normalized.append((ns.text, ns.start, ns.end))
        if token is None:
            pieces += [(p.text, p.start, p.end) for p in pre_tokenized(tok, ns, text)]
    records = tok.encode_records(text, special_mode="special", add_special_tokens=add_special_tokens)
    return StageTrace(tuple(normalized), tuple(pieces), tuple(records))
