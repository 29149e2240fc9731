"""A SentencePiece model as a :class:`bpe_engine.types.Tokenizer`: ids equal to ``sentencepiece``.

Encoding is ``SentencePieceProcessor::Encode``: normalize (:class:`.SpecNormalizer`), segment
the normalized text (BPE or Unigram), then report pieces as ``PopulateSentencePieceText`` does --
an unknown piece becomes its UTF-8 bytes as ``<0xNN>`` pieces when the model has byte fallback,
else consecutive unknown pieces are one unknown id. No BOS/EOS unless asked (``add_bos``/
``add_eos``, as ``sentencepiece``'s own options).

Control pieces (``<s>``, ``</s>``, ``[INST]`` ...) are never matched in text by SentencePiece;
``special_mode="special"`` cuts their text out first (and ``<unk>``'s) and encodes each stretch
between them as a separate input, which is how callers such as mistral-common combine them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from ..errors import ConfigError
from ..inspect.text_index import clean_text
from ..special_text import special_segments
from ..token_ids import check_decode_ids
from ..types import DEFAULT_SPECIAL_MODE, Capabilities, Encoding, SpecialMode
from .bpe import BpeModel
from .decoding import SentencePieceDecoder
from .model_proto import ModelFile, PieceType, byte_of_piece
from .scores import in_trie
from .spec_normalizer import SpecNormalizer
from .unigram import Node, UnigramModel
from .unigram_words import UnigramWords
from .words import word_splitter

if TYPE_CHECKING:
    from ..explore.merge_tree import MergeNode
    from .explain import UnigramChoice

_SURROGATE = re.compile("[\ud800-\udfff]")
Span = tuple[int, int]


class SentencePieceTokenizer:
    """A loaded ``.model`` (BPE or Unigram); see the module docstring."""

    def __init__(self, model: ModelFile, *, name: str, add_bos: bool = False, add_eos: bool = False) -> None:
        if model.model_type not in ("bpe", "unigram"):
            raise ConfigError(
                f"{name}: SentencePiece {model.model_type.upper()} models are not supported (only BPE and UNIGRAM)"
            )
        self.name = name
        self.model = model
        self.kind = model.model_type
        self.add_bos, self.add_eos = add_bos, add_eos
        self._pieces = model.pieces
        self._types = model.types
        self.unk_id = model.unk_id
        user = [p for p, t in zip(model.pieces, model.types, strict=True) if t is PieceType.USER_DEFINED]
        self.normalizer = SpecNormalizer(
            model.normalizer, treat_whitespace_as_suffix=model.treat_whitespace_as_suffix, user_symbols=user
        )
        self._byte_ids: list[int] | None = None
        if model.byte_fallback:
            by_byte = {byte_of_piece(p): i for i, (p, t) in enumerate(zip(model.pieces, model.types)) if t is PieceType.BYTE}
            self._byte_ids = [by_byte[b] for b in range(256)]
        self._byte_set = frozenset(self._byte_ids or ())
        matchable = [p for p, ok in zip(model.pieces, in_trie(model.types, len(model.pieces)), strict=True) if ok]
        self._split = word_splitter(matchable, "▁" if model.normalizer.escape_whitespaces else " ")
        self.bpe: BpeModel | None = None
        self.unigram: UnigramModel | None = None
        self._unigram_words: UnigramWords | None = None
        if self.kind == "bpe":
            self.bpe = BpeModel(model.pieces, model.scores, model.types)
            self._memo: dict[str, tuple[int, ...]] = {}
        else:
            self.unigram = UnigramModel(
                list(zip(model.pieces, model.scores, strict=True)),
                unk_id=model.unk_id,
                byte_fallback=model.byte_fallback,
                kinds=model.types,
                float32=True,
            )
            self._unigram_words = UnigramWords(self.unigram)
        self._decoder = SentencePieceDecoder(model)
        self._specials = {p: i for i, (p, t) in enumerate(zip(model.pieces, model.types)) if t in (PieceType.CONTROL, PieceType.UNKNOWN)}
        self.bos_id = self._control_id(model.bos_piece)
        self.eos_id = self._control_id(model.eos_piece)
        self.unk_token = model.pieces[model.unk_id]
        self.notes: tuple[str, ...] = ()
        unigram = self.kind == "unigram"
        self.capabilities = Capabilities(
            family="unigram" if unigram else "bpe",
            explains="unigram-choice" if unigram else "merge-tree",
            merge_order=None if unigram else "piece-scores",
            adds_specials=add_bos or add_eos,
            byte_fallback=model.byte_fallback,
        )

    def __repr__(self) -> str:
        return f"SentencePieceTokenizer({self.name!r}, {self.kind}, {self.vocab_size} pieces)"

    # -- the Tokenizer protocol --------------------------------------------------------------------
    @property
    def vocab_size(self) -> int:
        return len(self._pieces)

    @property
    def special_tokens(self) -> dict[str, int]:
        """Control and unknown pieces: text that ``special_mode="special"`` encodes as these ids."""
        return dict(self._specials)

    def token_str(self, token_id: int) -> str:
        """The piece as the model spells it (``▁the``, ``<0x0A>``, ``<s>``)."""
        return self._pieces[self._check_id(token_id)]

    def token_bytes(self, token_id: int) -> bytes:
        """What the piece stands for: its byte for ``<0xNN>``, its text with ``▁`` as a space
        for ordinary pieces, its own spelling for control and unknown pieces."""
        piece = self.token_str(token_id)
        kind = self._types[token_id]
        if kind is PieceType.BYTE:
            return bytes((byte_of_piece(piece) or 0,))
        if kind in (PieceType.CONTROL, PieceType.UNKNOWN):
            return piece.encode("utf-8")
        return piece.replace("▁", " ").encode("utf-8")

    def piece_score(self, token_id: int) -> float:
        """The piece's score: its log-probability (Unigram) or merge priority (BPE)."""
        return self.model.scores[self._check_id(token_id)]

    def piece_type(self, token_id: int) -> PieceType:
        return self._types[self._check_id(token_id)]

    # -- inspector data (see .explain) ---------------------------------------------------------------
    def merge_tree(self, token_id: int, *, special: bool = False) -> MergeNode | None:
        """Why this piece: its merge tree for BPE (by piece scores); None for Unigram pieces."""
        from .explain import merge_tree_of

        return merge_tree_of(self, token_id, special=special)

    def unigram_choice(self, text: str, n: int = 5) -> UnigramChoice | None:
        """Unigram models: the best segmentation of ``text`` and the ``n`` next best, scored."""
        from .explain import unigram_choice

        return unigram_choice(self, text, n)

    @cached_property
    def merge_ranks(self) -> dict[str, int]:
        """BPE: each merged piece's merge number (its place in score order)."""
        from .explain import merge_ranks

        mergeable = [t is PieceType.NORMAL for t in self._types]
        return merge_ranks(list(self._pieces), list(self.model.scores), mergeable)

    def encode(
        self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_bos: bool | None = None, add_eos: bool | None = None,
        add_special_tokens: bool = True,
    ) -> list[int]:
        """Token ids of ``text``, equal to ``sentencepiece``'s ``encode`` (see the module docstring).
        ``add_special_tokens=False`` leaves out the BOS/EOS the model adds by default."""
        if not add_special_tokens:
            add_bos, add_eos = add_bos or False, add_eos or False
        if special_mode == "text" and _SURROGATE.search(text) is None:
            out = self._ids(self.normalizer.normalize(text))  # the common case, without detours
        else:
            out = []
            for segment, special in self._segments(text, special_mode):
                out += [self._specials[segment]] if special else self._ids(self.normalizer.normalize(segment))
        if add_bos or add_eos or self.add_bos or self.add_eos:
            bos, eos = self._bos_eos(add_bos, add_eos)
            if bos is not None:
                out.insert(0, bos)
            if eos is not None:
                out.append(eos)
        return out

    def encode_detailed(
        self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_bos: bool | None = None, add_eos: bool | None = None,
        add_special_tokens: bool = True,
    ) -> Encoding:
        """Ids with byte spans into ``text`` through normalization, as SentencePiece maps them.

        Byte-fallback tokens of a character kept as is cover one byte each; when normalization
        changed the character, the last of its byte tokens covers it and the others are empty
        (SentencePiece's own convention). ``Encoding.text`` has lone surrogates as U+FFFD.
        """
        if not add_special_tokens:
            add_bos, add_eos = add_bos or False, add_eos or False
        text = clean_text(text).text
        ids: list[int] = []
        spans: list[Span] = []
        specials: list[bool] = []
        unknown: list[bool] = []
        base = 0
        for segment, special in self._segments(text, special_mode):
            if special:
                ids.append(self._specials[segment])
                spans.append((base, base + len(segment.encode("utf-8"))))
                specials.append(True)
                unknown.append(False)
            else:
                for tid, span in self._detailed_segment(segment):
                    ids.append(tid)
                    spans.append((span[0] + base, span[1] + base))
                    specials.append(False)
                    unknown.append(tid == self.unk_id)
            base += len(segment.encode("utf-8"))
        bos, eos = self._bos_eos(add_bos, add_eos)
        if bos is not None:
            ids.insert(0, bos)
            spans.insert(0, (0, 0))
            specials.insert(0, True)
            unknown.insert(0, False)
        if eos is not None:
            ids.append(eos)
            spans.append((base, base))
            specials.append(True)
            unknown.append(False)
        raw = text.encode("utf-8")
        tokens = tuple(
            raw[s:e].decode("utf-8", "replace") if unk else self.token_str(tid)
            for tid, (s, e), unk in zip(ids, spans, unknown, strict=True)
        )
        return Encoding(
            text=text,
            ids=tuple(ids),
            tokens=tokens,
            byte_spans=tuple(spans),
            special=tuple(specials),
            unknown=tuple(unknown),
            notes=self._unknown_note(sum(unknown)),
        )

    def _unknown_note(self, count: int) -> tuple[str, ...]:
        if not count:
            return ()
        piece = self._pieces[self.unk_id]
        return (
            f"{count} piece{'s' if count != 1 else ''} of text ha{'ve' if count != 1 else 's'} characters {self.name} has no "
            f"piece for and no byte fallback; each became the unknown piece {piece!r} (id {self.unk_id})",
        )

    def decode(self, ids: Sequence[int], *, errors: Literal["replace", "strict"] = "replace") -> str:
        """Text of ``ids`` exactly as ``sentencepiece`` decodes it (``errors="strict"`` raises
        where it would put U+FFFD for invalid byte pieces)."""
        check_decode_ids(ids, len(self._pieces), self.name)
        return self._decoder.decode(ids, strict=errors == "strict")

    # -- internals ---------------------------------------------------------------------------------
    def _segments(self, text: str, mode: SpecialMode) -> list[tuple[str, bool]]:
        return special_segments(clean_text(text).text, self._specials, mode, self.name)

    def _ids(self, normalized: str) -> list[int]:
        """Ids of normalized text, word by word from the memo."""
        if not normalized:
            return []
        words = self._split(normalized)
        if self._unigram_words is not None:
            return self._unigram_words.encode(words)
        memo = self._memo
        out: list[int] = []
        unk = self.unk_id
        for word in words:
            ids = memo.get(word)
            if ids is None:
                ids = self._bpe_word(word)
            if out and ids and ids[0] == unk and out[-1] == unk and self._byte_ids is None:
                out += ids[1:]
            else:
                out += ids
        return out

    def _bpe_word(self, word: str) -> tuple[int, ...]:
        assert self.bpe is not None
        ids = tuple(tid for tid, _s, _e in self._report(self._bpe_nodes(word), word))
        if len(self._memo) < 1 << 18:
            self._memo[word] = ids
        return ids

    def _bpe_nodes(self, text: str) -> list[Node]:
        assert self.bpe is not None
        nodes: list[Node] = []
        pos = 0
        for word in self._split(text):
            for piece, tid in self.bpe.encode_word(word):
                nodes.append((pos, pos + len(piece), tid))
                pos += len(piece)
        return nodes

    def _report(self, nodes: Sequence[Node], normalized: str) -> list[tuple[int, int, int]]:
        """``(id, start, end)`` as SentencePiece reports pieces: unknowns as bytes, or fused."""
        out: list[tuple[int, int, int]] = []
        unk, byte_ids = self.unk_id, self._byte_ids
        prev_unk = False
        for s, e, tid in nodes:
            if tid == unk and byte_ids is not None:
                out += [(byte_ids[b], s, e) for b in normalized[s:e].encode("utf-8")]
            elif tid == unk and prev_unk:
                out[-1] = (unk, out[-1][1], e)
            else:
                out.append((tid, s, e))
            prev_unk = tid == unk
        return out

    def _detailed_segment(self, segment: str) -> list[tuple[int, Span]]:
        normalized, origin = self.normalizer.aligned(segment)
        if not normalized:
            return []
        if self._unigram_words is not None:
            nodes = self._unigram_words.segment(self._split(normalized))
        else:
            nodes = self._bpe_nodes(normalized)
        raw = segment.encode("utf-8")
        out: list[tuple[int, Span]] = []
        reported = self._report(nodes, normalized)
        k = 0
        while k < len(reported):
            tid, s, e = reported[k]
            begin, end = origin[s], origin[e]
            if self._byte_ids is not None and tid in self._byte_set and s != e:
                # the byte pieces of one character are consecutive: scanning the whole rest for
                # them made encode_detailed quadratic (9.5 s for 279 KB of mistral-v1 text)
                stop = k + 1
                while stop < len(reported) and reported[stop][1] == s and reported[stop][2] == e:
                    stop += 1
                group = reported[k:stop]
                data = normalized[s:e].encode("utf-8")
                if raw[begin:end] == data and len(group) == len(data):
                    out += [(r[0], (begin + j, begin + j + 1)) for j, r in enumerate(group)]
                else:
                    out += [(r[0], (begin, begin)) for r in group[:-1]] + [(group[-1][0], (begin, end))]
                k += len(group)
                continue
            out.append((tid, (begin, end)))
            k += 1
        return out

    def _bos_eos(self, add_bos: bool | None, add_eos: bool | None) -> tuple[int | None, int | None]:
        """The BOS/EOS ids to add (None: not asked for); asking a model without them is an error."""
        bos = self.add_bos if add_bos is None else add_bos
        eos = self.add_eos if add_eos is None else add_eos
        return (
            self._required(self.bos_id, "BOS", self.model.bos_piece) if bos else None,
            self._required(self.eos_id, "EOS", self.model.eos_piece) if eos else None,
        )

    def _required(self, tid: int | None, what: str, piece: str) -> int:
        if tid is None:
            raise ConfigError(f"{self.name} has no {what} piece ({piece!r} is not a control piece); drop add_{what.lower()}")
        return tid

    def _control_id(self, piece: str) -> int | None:
        tid = self._specials.get(piece)
        return tid if tid is not None and self._types[tid] is PieceType.CONTROL else None

    def _check_id(self, token_id: int) -> int:
        if not isinstance(token_id, int) or not 0 <= token_id < len(self._pieces):
            raise ConfigError(f"id {token_id!r} is out of range for {self.name} (0..{len(self._pieces) - 1})")
        return token_id

