"""The WordPiece tokenizer: BERT front end, greedy longest-match-first, offsets into the original.

Pipeline, stage by stage as in Hugging Face (normaliser -> pre-tokenizer -> model ->
post-processor -> decoder):

1. special tokens (``[CLS]`` ...) are cut out of the raw text first, if ``special_mode="special"``;
2. each other segment is normalised (:class:`.BertNormalizer`, with an alignment map) and split
   into words (:func:`.bert_pieces`) -- or, for a tokenizer trained on another pre-tokenizer, cut
   by that one;
3. each word is matched greedily: the longest vocabulary piece at the start, then the longest
   ``##`` piece after it, and so on. A word where some position has no piece at all, or longer
   than ``max_input_chars_per_word``, becomes one ``[UNK]`` (WordPiece never falls back to bytes);
4. ``add_special_tokens=True`` wraps the ids as ``[CLS] ... [SEP]``;
5. decoding joins ``##`` pieces to the piece before and the rest with spaces.

>>> from bpe_engine.wordpiece import bert_base_uncased
>>> tok = bert_base_uncased()
>>> [tok.token_str(i) for i in tok.encode("unaffable")]
['[CLS]', 'una', '##ffa', '##ble', '[SEP]']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from ..errors import ConfigError
from ..pretokenizers import PreTokenizer
from ..special_text import special_segments
from ..types import DEFAULT_SPECIAL_MODE, Capabilities, Encoding, SpecialMode
from .bert_normalizer import BertNormalizer
from .bert_pretokenizer import bert_pieces

BERT_SPECIALS: tuple[str, ...] = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
_CLEANUP = ((" .", "."), (" ?", "?"), (" !", "!"), (" ,", ","), (" ' ", "'"), (" n't", "n't"), (" 'm", "'m"),
            (" do not", " don't"), (" 's", "'s"), (" 've", "'ve"), (" 're", "'re"))


def wordpiece_cleanup(text: str) -> str:
    """HF's WordPiece decoder clean-up: no space before punctuation and English contractions."""
    for dirty, clean in _CLEANUP:
        text = text.replace(dirty, clean)
    return text


class WordPieceTokenizer:
    """A WordPiece vocabulary with BERT's front end; implements :class:`bpe_engine.types.Tokenizer`.

    ``vocab`` maps token -> id (or is a sequence of tokens, ids = positions). ``special_tokens``
    are those of them recognised in text with ``special_mode="special"`` (BERT's five by default,
    when present). ``normalizer=None`` means no normalisation; ``pre_tokenizer=None`` means BERT's
    whitespace/punctuation split, any :class:`~bpe_engine.pretokenizers.PreTokenizer` replaces it.
    """

    def __init__(
        self,
        vocab: Mapping[str, int] | Sequence[str],
        *,
        name: str = "wordpiece",
        unk_token: str = "[UNK]",
        continuing_prefix: str = "##",
        max_input_chars_per_word: int = 100,
        normalizer: BertNormalizer | None = BertNormalizer(),
        pre_tokenizer: PreTokenizer | None = None,
        special_tokens: Iterable[str] = BERT_SPECIALS,
        cls_token: str = "[CLS]",
        sep_token: str = "[SEP]",
    ) -> None:
        if not isinstance(vocab, Mapping):
            vocab = {tok: i for i, tok in enumerate(vocab)}
        self.name = name
        self._vocab: dict[str, int] = dict(vocab)
        self._id_to_tok: dict[int, str] = {i: t for t, i in self._vocab.items()}
        if len(self._id_to_tok) != len(self._vocab):
            raise ConfigError("two tokens share one id in the WordPiece vocabulary; ids must be unique")
        if unk_token not in self._vocab:
            raise ConfigError(f"the unknown token {unk_token!r} is not in the vocabulary; add it (WordPiece needs it)")
        self.unk_token = unk_token
        self.unk_id = self._vocab[unk_token]
        self.continuing_prefix = continuing_prefix
        self.max_input_chars_per_word = max_input_chars_per_word
        self.normalizer = normalizer
        self.pre_tokenizer = pre_tokenizer
        self.special_tokens: dict[str, int] = {t: self._vocab[t] for t in special_tokens if t in self._vocab}
        self.notes: tuple[str, ...] = ()
        self.cls_token = cls_token
        self.sep_token = sep_token
        self.capabilities = Capabilities(
            family="wordpiece",
            explains="longest-match",
            line_safe=pre_tokenizer is None or pre_tokenizer.line_safe,  # BERT's split: whitespace and punctuation
            adds_specials=cls_token in self._vocab and sep_token in self._vocab,  # BERT's [CLS] ... [SEP]
        )
        self._max_piece = max((len(t) - len(continuing_prefix) if t.startswith(continuing_prefix) else len(t)
                               for t in self._vocab), default=1)
        self._cache: dict[str, tuple[tuple[int, int, int], ...]] = {}

    # -- Tokenizer protocol ----------------------------------------------------------------------
    @property
    def vocab_size(self) -> int:
        return len(self._vocab)

    @property
    def vocab(self) -> dict[str, int]:
        """Token -> id (a copy)."""
        return dict(self._vocab)

    def encode(self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True) -> list[int]:
        """Token ids of ``text``; ``add_special_tokens`` (the default, as HF's BERT tokenizer)
        wraps them as ``[CLS] ... [SEP]``."""
        return [tid for tid, _, _, _ in self._encode(text, special_mode, add_special_tokens)]

    def encode_detailed(
        self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True
    ) -> Encoding:
        """Ids, token strings and each token's byte span in ``text.encode("utf-8")``.

        Pieces of one character share its span (``한`` -> ``ᄒ ##ᅡ ##ᆫ``, each spanning all 3 bytes);
        ``[CLS]``/``[SEP]`` added by post-processing span nothing, ``(0, 0)``, as in HF.
        A word WordPiece cannot cut becomes ``[UNK]``, marked as an unknown piece with a note.
        """
        items = self._encode(text, special_mode, add_special_tokens)
        to_byte = _char_to_byte(text)
        ids = tuple(t for t, _, _, _ in items)
        unknown = tuple(t == self.unk_id and not sp for t, _, _, sp in items)
        notes: tuple[str, ...] = ()
        if any(unknown):
            notes = (
                f"unknown piece: a word became {self.unk_token!r} because WordPiece found no vocabulary piece for "
                f"some position in it, or it is longer than {self.max_input_chars_per_word} characters",
            )
        return Encoding(
            text=text,
            ids=ids,
            tokens=tuple(self._id_to_tok[t] for t in ids),
            byte_spans=tuple((to_byte[s], to_byte[e]) for _, s, e, _ in items),
            special=tuple(sp for _, _, _, sp in items),
            unknown=unknown,
            notes=notes,
        )

    def encode_offsets(
        self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True
    ) -> list[tuple[int, int, int]]:
        """``(id, start, end)`` per token, with ``[start, end)`` a *character* span of ``text``
        (what HF reports as ``Encoding.offsets``)."""
        return [(t, s, e) for t, s, e, _ in self._encode(text, special_mode, add_special_tokens)]

    def decode(
        self,
        ids: Sequence[int],
        *,
        errors: Literal["replace", "strict"] = "replace",
        skip_special_tokens: bool = True,
        cleanup: bool = True,
    ) -> str:
        """Join pieces: ``##`` pieces glue to the one before, others get a space (HF's WordPiece
        decoder, ``cleanup`` removing spaces before punctuation); special tokens are left out unless
        ``skip_special_tokens=False`` (HF's default, so ``decode(encode(s))`` gives ``s`` back). Accents and case lost by the
        normaliser stay lost. An unknown id is U+FFFD, or an error with ``errors="strict"``."""
        prefix = self.continuing_prefix
        parts: list[str] = []
        for tid in ids:
            tok = self._id_to_tok.get(tid)
            if tok is None:
                if errors == "strict":
                    raise ConfigError(f"token id {tid} is not in the vocabulary of {self.name} ({self.vocab_size} tokens)")
                tok = "\ufffd"
            elif skip_special_tokens and tok in self.special_tokens:
                continue
            if parts:
                tok = tok[len(prefix):] if tok.startswith(prefix) else " " + tok
            parts.append(wordpiece_cleanup(tok) if cleanup else tok)
        return "".join(parts)

    def token_str(self, token_id: int) -> str:
        """The token as the vocabulary spells it (``##ing``)."""
        try:
            return self._id_to_tok[token_id]
        except KeyError:
            raise ConfigError(f"token id {token_id} is not in the vocabulary of {self.name}") from None

    def token_bytes(self, token_id: int) -> bytes:
        """UTF-8 of the text the token stands for: ``##ing`` -> ``b"ing"``."""
        tok = self.token_str(token_id)
        if tok.startswith(self.continuing_prefix) and tok not in self.special_tokens:
            tok = tok[len(self.continuing_prefix):]
        return tok.encode("utf-8")

    # -- helpers for the app ---------------------------------------------------------------------
    def token_to_id(self, token: str) -> int | None:
        return self._vocab.get(token)

    def words(self, text: str) -> list[str]:
        """The words the front end cuts ``text`` into (after normalisation)."""
        norm = self.normalizer.normalize(text) if self.normalizer is not None else text
        if self.pre_tokenizer is not None:
            return self.pre_tokenizer.split(norm)
        return [w for w, _, _ in bert_pieces(norm)]

    def tokenize_word(self, word: str) -> list[str]:
        """Greedy longest-match-first pieces of one (normalised) word, or ``['[UNK]']``."""
        return [self._id_to_tok[t] for t, _, _ in self.word_pieces(word)]

    def __repr__(self) -> str:
        return f"WordPieceTokenizer(name={self.name!r}, vocab_size={self.vocab_size})"

    # -- private ---------------------------------------------------------------------------------
    def _encode(self, text: str, mode: SpecialMode, add_special_tokens: bool) -> list[tuple[int, int, int, bool]]:
        """``(id, char_start, char_end, is_special)`` per token."""
        specials = self.special_tokens
        segments = special_segments(text, specials, mode, self.name)
        out: list[tuple[int, int, int, bool]] = []
        wrap = add_special_tokens and self.capabilities.adds_specials  # as HF: nothing to add, nothing added
        if wrap:
            out.append((self._vocab[self.cls_token], 0, 0, True))
        base = 0
        for segment, is_special in segments:
            if is_special:
                out.append((specials[segment], base, base + len(segment), True))
            else:
                self._encode_segment(segment, base, out)
            base += len(segment)
        if wrap:
            out.append((self._vocab[self.sep_token], 0, 0, True))
        return out

    def _encode_segment(self, segment: str, base: int, out: list[tuple[int, int, int, bool]]) -> None:
        align: Sequence[int]  # each normalized character's position in the segment
        if self.normalizer is not None:
            norm, align = self.normalizer.normalize_aligned(segment)
        else:
            norm, align = segment, range(len(segment))
        if self.pre_tokenizer is None:
            for word, start, _ in bert_pieces(norm):
                for tid, s, e in self.word_pieces(word):
                    out.append((tid, base + align[start + s], base + align[start + e - 1] + 1, False))
            return
        for piece, start, end in self.pre_tokenizer.pieces(norm):
            shift = len(piece) - (end - start)  # a prepended marker covers no character of the text
            for tid, s, e in self.word_pieces(piece):
                s, e = max(s - shift, 0), max(e - shift, 0)
                if e > s:
                    out.append((tid, base + align[start + s], base + align[start + e - 1] + 1, False))
                else:  # the piece is only the prepended marker: an empty span where it stands
                    at = base + (align[start] if start < len(align) else len(segment))
                    out.append((tid, at, at, False))

    def word_pieces(self, word: str) -> tuple[tuple[int, int, int], ...]:
        """Greedy longest-match-first: ``(id, start, end)`` per piece, in the word's characters."""
        cached = self._cache.get(word)
        if cached is not None:
            return cached
        n = len(word)
        unk = ((self.unk_id, 0, n),)
        if n > self.max_input_chars_per_word:
            return unk
        vocab, prefix = self._vocab, self.continuing_prefix
        pieces: list[tuple[int, int, int]] = []
        start = 0
        while start < n:
            end = min(n, start + self._max_piece)
            while end > start:
                tid = vocab.get(word[start:end] if start == 0 else prefix + word[start:end])
                if tid is not None:
                    break
                end -= 1
            else:
                pieces = list(unk)
                break
            pieces.append((tid, start, end))
            start = end
        result = tuple(pieces)
        if len(self._cache) < 100_000:
            self._cache[word] = result
        return result



def _char_to_byte(text: str) -> list[int]:
    """Byte offset in UTF-8 of each character index 0..len(text)."""
    if text.isascii():
        return list(range(len(text) + 1))
    offsets = [0]
    total = 0
    for ch in text:
        total += len(ch.encode("utf-8", "surrogatepass"))
        offsets.append(total)
    return offsets
