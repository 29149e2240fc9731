"""HF's other models behind the interface of :class:`.bpe.HfBpeModel`: WordPiece, WordLevel, Unigram.

Each offers ``encode_piece(piece) -> ids`` (cached where it pays), ``tokenize(piece)`` with
character spans inside the piece, ``vocab``, ``id_to_token`` and ``token_to_id``.

* ``WordPiece`` is the WordPiece engine's greedy longest-match (already exact against HF):
  a piece longer than ``max_input_chars_per_word`` or with an unmatched position is one unk.
* ``WordLevel`` looks the whole piece up, else ``unk_token``; without one HF fails the encode,
  and so do we, naming the piece.
* ``Unigram`` is the SentencePiece engine's Viterbi (:mod:`bpe_engine.sentencepiece.unigram`) with
  HF's conventions: unknown runs fused into one ``unk_id`` and byte fallback to ``<0xNN>``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from ..bpe.encode import PieceCache
from ..errors import ConfigError
from ..types import UNKNOWN_ID, Family
from ..wordpiece.model import WordPieceTokenizer


class HfModel(Protocol):
    """What every model stage declares (:class:`~bpe_engine.hf.bpe.HfBpeModel` and the three below):
    the pipeline reads these, never probes for them."""

    family: Family
    vocab: dict[str, int]
    id_to_token: dict[int, str]
    unk_token: str | None
    unk_id: int | None
    prefix: str
    """The continuing-subword prefix (WordPiece's ``##``; "" without one)."""
    suffix: str
    """The end-of-word suffix (``</w>``; "" without one)."""
    byte_fallback: bool
    """Unknown characters become ``<0xNN>`` byte pieces."""
    raw_bytes_ok: bool
    """A byte-level BPE whose pieces can be encoded from raw bytes (the pipeline's fast path)."""

    def encode_piece(self, piece: str) -> tuple[int, ...]: ...

    def tokenize(self, piece: str) -> list[tuple[int, int, int]]: ...

    def token_to_id(self, token: str) -> int | None: ...


class WordPieceModel:
    """HF ``WordPiece``: greedy longest-match-first with a continuing-subword prefix."""

    family: Family = "wordpiece"
    suffix = ""
    byte_fallback = False
    raw_bytes_ok = False

    def __init__(self, vocab: Mapping[str, int], *, unk_token: str, prefix: str, max_input_chars_per_word: int) -> None:
        self.vocab = dict(vocab)
        self.id_to_token = {i: t for t, i in self.vocab.items()}
        self.unk_token = unk_token
        self.unk_id = self.vocab[unk_token]
        self.prefix = prefix
        self._engine = WordPieceTokenizer(
            self.vocab,
            unk_token=unk_token,
            continuing_prefix=prefix,
            max_input_chars_per_word=max_input_chars_per_word,
            normalizer=None,
            special_tokens=(),
        )
        self._cache: PieceCache[tuple[int, ...]] = PieceCache(lambda w: tuple(i for i, _, _ in self._engine.word_pieces(w)))

    def encode_piece(self, piece: str) -> tuple[int, ...]:
        return self._cache[piece] if piece else ()

    def tokenize(self, piece: str) -> list[tuple[int, int, int]]:
        return list(self._engine.word_pieces(piece)) if piece else []

    def token_to_id(self, token: str) -> int | None:
        return self.vocab.get(token)


class WordLevelModel:
    """HF ``WordLevel``: one token per piece."""

    family: Family = "wordlevel"
    prefix = suffix = ""
    byte_fallback = False
    raw_bytes_ok = False

    def __init__(self, vocab: Mapping[str, int], *, unk_token: str) -> None:
        self.vocab = dict(vocab)
        self.id_to_token = {i: t for t, i in self.vocab.items()}
        self.unk_token = unk_token
        self.unk_id = self.vocab.get(unk_token)

    def encode_piece(self, piece: str) -> tuple[int, ...]:
        ids = tuple(i for i, _, _ in self.tokenize(piece))
        if UNKNOWN_ID in ids:
            raise ConfigError(
                f"WordLevel model: {piece!r} is not in the vocabulary and the unk_token {self.unk_token!r} is missing "
                "too (Hugging Face fails the same way); add the unk token to the vocabulary"
            )
        return ids

    def tokenize(self, piece: str) -> list[tuple[int, int, int]]:
        """One token; an unknown piece without an unk token is :data:`UNKNOWN_ID` (an explorer shows it)."""
        if not piece:
            return []
        token_id = self.vocab.get(piece)
        if token_id is None:
            token_id = UNKNOWN_ID if self.unk_id is None else self.unk_id
        return [(token_id, 0, len(piece))]

    def token_to_id(self, token: str) -> int | None:
        return self.vocab.get(token)


class HfUnigramModel:
    """HF ``Unigram`` over the SentencePiece engine's Viterbi."""

    family: Family = "unigram"
    prefix = suffix = ""
    raw_bytes_ok = False

    def __init__(self, pieces: Sequence[tuple[str, float]], *, unk_id: int | None, byte_fallback: bool) -> None:
        from ..sentencepiece.unigram import UnigramModel as Viterbi

        self.vocab = {p: i for i, (p, _) in enumerate(pieces)}
        self.id_to_token = {i: p for p, i in self.vocab.items()}
        self.scores = [s for _, s in pieces]
        self.unk_token = pieces[unk_id][0] if unk_id is not None else None
        self.unk_id = unk_id
        self.byte_fallback = byte_fallback
        self._engine = Viterbi(pieces, unk_id=unk_id, byte_fallback=byte_fallback)
        self._cache: PieceCache[tuple[int, ...]] = PieceCache(lambda p: tuple(self._engine.encode_piece(p)))

    def encode_piece(self, piece: str) -> tuple[int, ...]:
        return self._cache[piece] if piece else ()

    def tokenize(self, piece: str) -> list[tuple[int, int, int]]:
        # HF's spans: a fused unknown run's byte tokens all carry the run's span.
        return self._engine.tokenize(piece) if piece else []

    def token_to_id(self, token: str) -> int | None:
        return self.vocab.get(token)

