"""``HfTokenizer``: a Hugging Face ``tokenizer.json`` pipeline, stage by stage, with HF's ids.

``encode(text)`` follows ``TokenizerImpl::encode``: added tokens with ``normalized: false`` are cut
out of the raw text; each other part is normalised and searched for the normalised added tokens;
what is left is pre-tokenized into pieces, each piece goes through the model; then truncation, the
post-processor (BOS/EOS and the like, when ``add_special_tokens`` -- HF's default) and padding.

Two paths compute it. The *fast* path works on plain strings and memoises piece -> ids; the
*aligned* path carries :class:`.NormalizedString` alignments so every token gets HF's offsets and
our byte span (``encode_detailed``). Both run the same stage objects. The fast path is exact except
for one position-dependent rule -- ``Metaspace(prepend_scheme="first")`` prepends only to the piece
that starts the original text -- which it can decide only when that pre-tokenizer comes first and
the normaliser never moves the text's start (:attr:`HfTokenizer.fast_path`); otherwise ``encode``
takes the aligned path.

Special tokens (``special_mode``): ``"special"`` matches every added token, as HF's ``encode``;
``"text"`` is HF's ``encode_special_tokens``: special tokens are encoded as text (non-special added
tokens still match); ``"refuse"`` raises :class:`SpecialTokenError` when a special token is found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import reduce
from operator import iadd
from typing import TYPE_CHECKING, Any, Literal, cast

from ..bpe.byte_table import is_byte_token_str, token_str_to_bytes
from ..errors import ConfigError
from ..special_text import checked_mode, refuse_special_text
from ..token_ids import check_decode_ids
from ..types import DEFAULT_SPECIAL_MODE, UNKNOWN_ID, Capabilities, Encoding, Explains, SpecialMode
from .added_tokens import AddedVocabulary
from .bpe import HfBpeModel
from .decoders import DecoderStage
from .models import HfModel
from .normalizers import Normalizer
from .post_processors import Padding, PostProcessor, TokenRecord, Truncation
from .pre_tokenizers import ByteLevel, PreTokenizerStage, SequencePre

if TYPE_CHECKING:
    from ..explore.merge_tree import MergeNode



@dataclass
class Pipeline:
    """The stages of one tokenizer.json, as :mod:`.loader` builds them."""

    model: HfModel
    normalizer: Normalizer | None = None
    pre_tokenizer: PreTokenizerStage | None = None
    post_processor: PostProcessor | None = None
    decoder: DecoderStage | None = None
    added: AddedVocabulary = field(default_factory=lambda: AddedVocabulary([], None))
    truncation: Truncation | None = None
    padding: Padding | None = None
    byte_level: bool = False
    metaspace: str | None = None  # the replacement character when the pipeline marks spaces
    fast_path: bool = True
    fold_bytes: bool = False  # fast path: the last ByteLevel leaves text, the model reads bytes
    extra_tokens: dict[int, str] = field(default_factory=dict)  # post-processor/padding ids the vocab lacks


_EXPLAINS: dict[str, Explains] = {"bpe": "merge-tree", "wordpiece": "longest-match", "unigram": "none", "wordlevel": "none"}
"""The "why" each model family of a tokenizer.json answers (an HF Unigram keeps no lattice story)."""


class HfTokenizer:
    """A loaded tokenizer.json (implements :class:`bpe_engine.types.Tokenizer`)."""

    def __init__(self, name: str, pipeline: Pipeline, notes: Sequence[str] = ()) -> None:
        self.name = name
        self.pipeline = pipeline
        self.notes = list(notes)
        self.special_tokens = {t.content: t.id for t in pipeline.added.tokens if t.special}
        self.unk_token = pipeline.model.unk_token
        self.unk_id = pipeline.model.unk_id
        model = pipeline.model
        self.capabilities = Capabilities(
            family=model.family,
            byte_level=pipeline.byte_level,
            explains=_EXPLAINS[model.family],
            merge_order="merge-list" if model.family == "bpe" else None,
            replays_merges=model.family == "bpe",
            traces_stages=True,
            adds_specials=pipeline.post_processor is not None and pipeline.post_processor.added_tokens() > 0,
            byte_fallback=model.byte_fallback,
        )
        self._stages = _flatten(pipeline.pre_tokenizer)
        self._vocab_size: int | None = None

    def __repr__(self) -> str:
        return f"<HfTokenizer {self.name!r} {type(self.pipeline.model).__name__}>"

    # -- the Tokenizer protocol ------------------------------------------------------------------
    @property
    def vocab_size(self) -> int:
        """Distinct ids: the model's vocabulary and the added tokens."""
        if self._vocab_size is None:
            ids = set(self.pipeline.model.vocab.values())
            ids.update(t.id for t in self.pipeline.added.tokens)
            self._vocab_size = len(ids)
        return self._vocab_size

    @property
    def byte_level(self) -> bool:
        return self.pipeline.byte_level

    @property
    def vocab(self) -> dict[str, int]:
        """Model vocabulary plus added tokens (a new dict)."""
        return {**self.pipeline.model.vocab, **{t.content: t.id for t in self.pipeline.added.tokens}}

    def encode(self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True) -> list[int]:
        """Token ids of ``text`` as HF's ``encode(text, add_special_tokens=...)`` gives them."""
        skip = self._check_mode(text, special_mode)
        p = self.pipeline
        if not p.fast_path or p.truncation is not None or p.padding is not None:
            ids = [r.id for r in self.encode_records(text, special_mode=special_mode, add_special_tokens=add_special_tokens)]
            if UNKNOWN_ID in ids:
                p.model.encode_piece(text)  # raises the model's own error, as Hugging Face fails
            return ids
        ids = self._encode_fast(text, skip)
        if p.post_processor is not None and add_special_tokens and p.post_processor.added_tokens():
            records = [TokenRecord(i, "", (0, 0), (0, 0)) for i in ids]
            ids = [r.id for r in p.post_processor.process(records, True)]
        return ids

    def encode_detailed(
        self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True
    ) -> Encoding:
        """Ids, tokens, byte spans into ``text`` and special flags (see :meth:`encode_records`)."""
        notes: list[str] = []
        records = self.encode_records(text, special_mode=special_mode, add_special_tokens=add_special_tokens, notes=notes)
        return Encoding(
            text=text,
            ids=tuple(r.id for r in records),
            tokens=tuple(r.symbol if r.unknown else r.token for r in records),
            byte_spans=tuple(r.span for r in records),
            special=tuple(r.special for r in records),
            unknown=tuple(r.unknown for r in records),
            notes=tuple(notes),
        )

    def encode_records(
        self,
        text: str,
        *,
        special_mode: SpecialMode = DEFAULT_SPECIAL_MODE,
        add_special_tokens: bool = True,
        notes: list[str] | None = None,
    ) -> list[TokenRecord]:
        """The full encoding: per token its id, string, HF offsets (characters) and byte span;
        ``notes`` receives what the user should know (unknown pieces, dropped characters)."""
        skip = self._check_mode(text, special_mode)
        from .aligned import aligned_records, unknown_notes

        records, dropped = aligned_records(self, text, skip)
        if notes is not None:
            notes += unknown_notes(self, records, dropped)
        p = self.pipeline
        added = p.post_processor.added_tokens() if p.post_processor is not None and add_special_tokens else 0
        if p.truncation is not None:
            records = p.truncation.apply(records, added)
        if p.post_processor is not None:
            records = p.post_processor.process(records, add_special_tokens)
        if p.padding is not None:
            records = p.padding.apply(records)
        return records

    def decode(
        self, ids: Sequence[int], *, errors: Literal["replace", "strict"] = "replace", skip_special_tokens: bool = True
    ) -> str:
        """Text of ``ids`` through the file's decoder, as HF's ``decode`` (which skips special tokens
        by default). An id in range that no vocabulary token has (a post-processor's own token) is
        left out, as HF does, or is an error with ``errors="strict"``; a negative or out-of-range id
        is an error (:func:`~bpe_engine.token_ids.check_decode_ids`)."""
        p = self.pipeline
        check_decode_ids(ids, self._id_limit(), self.name)
        tokens: list[str] = []
        for i in ids:
            added = p.added.by_id.get(i)
            if added is not None:
                if not (skip_special_tokens and added.special):
                    tokens.append(p.added.decode_form(added))
                continue
            token = p.model.id_to_token.get(i)
            if token is None:
                if errors == "strict":
                    raise self._bad_id(i)
                continue
            tokens.append(token)
        if p.decoder is None:
            return " ".join(tokens)
        return "".join(p.decoder.decode_chain(tokens))

    def token_str(self, token_id: int) -> str:
        """The token as the file spells it (``Ġthe``, ``▁the``, ``##ing``, ``<0x0A>``, ``<s>``)."""
        added = self.pipeline.added.by_id.get(token_id)
        if added is not None:
            return added.content
        token = self.pipeline.model.id_to_token.get(token_id)
        if token is None:
            token = self.pipeline.extra_tokens.get(token_id)
        if token is None:
            raise self._bad_id(token_id)
        return token

    def token_bytes(self, token_id: int) -> bytes:
        """What the token stands for: bytes for byte-level and ``<0xNN>`` tokens, else its text with
        the space marker as a space and the subword prefix/suffix removed."""
        token = self.token_str(token_id)
        if token_id in self.pipeline.added.by_id or token_id not in self.pipeline.model.id_to_token:
            return token.encode("utf-8", "surrogatepass")
        model = self.pipeline.model
        if self.pipeline.byte_level and is_byte_token_str(token):
            return token_str_to_bytes(token)
        if model.byte_fallback and len(token) == 6 and token.startswith("<0x") and token.endswith(">"):
            return bytes([int(token[3:5], 16)])
        prefix, suffix = model.prefix, model.suffix
        if prefix and token.startswith(prefix) and token != prefix:
            token = token[len(prefix) :]
        if suffix and token.endswith(suffix) and token != suffix:
            token = token[: -len(suffix)]
        if self.pipeline.metaspace:
            token = token.replace(self.pipeline.metaspace, " ")
        return token.encode("utf-8", "surrogatepass")

    # -- for the explorer ------------------------------------------------------------------------
    @property
    def merges(self) -> list[tuple[str, str]]:
        """The BPE model's merge list (AttributeError for other models: nothing to step through)."""
        model = self.pipeline.model
        if not isinstance(model, HfBpeModel):
            raise AttributeError(f"a {type(model).__name__} has no merges")
        return [(a, b) for a, b in model.merges[: min(model.limit, len(model.merges))]]

    @property
    def n_merges(self) -> int:
        """How many merges the BPE model has (0 for other models)."""
        model = self.pipeline.model
        return min(model.limit, len(model.merges)) if isinstance(model, HfBpeModel) else 0

    def merge_tree(self, token_id: int, *, special: bool = False) -> MergeNode | None:
        """The merges that build token ``token_id`` of the BPE model (an added token is a leaf)."""
        from ..explore.merge_tree import MergeNode, tree_of_merge_list

        data = self.token_bytes(token_id)
        if special or token_id in self.special_tokens.values():
            return MergeNode(self.token_str(token_id), data, "special")
        return tree_of_merge_list(self, self.token_str(token_id))

    def with_merge_prefix(self, k: int) -> HfTokenizer:
        """The same pipeline using only the first ``k`` merges of its BPE model."""
        model = self.pipeline.model
        if not isinstance(model, HfBpeModel):
            raise ConfigError(f"tokenizer {self.name!r} is not a BPE model; it has no merges to limit")
        if k < 0:
            raise ConfigError(f"merge prefix must be >= 0, got {k}")
        p = self.pipeline
        view = Pipeline(**{**p.__dict__, "model": model.with_merge_limit(k)})
        return HfTokenizer(self.name, view, self.notes)

    @property
    def pre_tokenizer(self) -> Any:
        """The pre-tokenization as the explorer's stepper reads it (see :mod:`.explore`)."""
        from .explore import PipelinePieces

        return PipelinePieces(self)

    # -- private ---------------------------------------------------------------------------------
    def _check_mode(self, text: str, mode: SpecialMode) -> bool:
        """True when special tokens are to be skipped (encoded as text)."""
        if checked_mode(mode) == "refuse" and self.special_tokens:
            found = self.pipeline.added.first_special(text)
            if found is not None:
                refuse_special_text([(found, True)], self.name)
        return mode == "text"

    def _encode_fast(self, text: str, skip_special: bool) -> list[int]:
        p = self.pipeline
        added = p.added
        out: list[int] = []
        raw_parts = added.find(text, normalized=False, skip_special=skip_special) if added else [(None, 0, len(text))]
        for token, start, end in raw_parts:
            if token is not None:
                out.append(token.id)
                continue
            if end <= start:
                continue
            segment = text[start:end]
            norm = p.normalizer.normalize_str(segment) if p.normalizer is not None else segment
            parts = added.find(norm, normalized=True, skip_special=skip_special) if added else [(None, 0, len(norm))]
            for token2, s, e in parts:
                if token2 is not None:
                    out.append(token2.id)
                elif e > s:
                    out += self._piece_ids(norm[s:e], start == 0 and s == 0)
        return out

    def _piece_ids(self, text: str, at_origin: bool) -> list[int]:
        p = self.pipeline
        if p.fold_bytes:  # only an HfBpeModel is raw_bytes_ok (loader.py)
            return reduce(iadd, map(cast(HfBpeModel, p.model).encode_raw, self.pre_pieces(text, at_origin, map_bytes=False)), [])
        return reduce(iadd, map(p.model.encode_piece, self.pre_pieces(text, at_origin)), [])

    def pre_pieces(self, text: str, at_origin: bool, *, map_bytes: bool = True) -> list[str]:
        """The fast path's pieces of one normalised part; ``map_bytes=False`` leaves a final
        ByteLevel stage's pieces as text."""
        pieces = [text]
        stages = self._stages
        last = stages[-1] if stages else None
        if not map_bytes and isinstance(last, ByteLevel):
            for stage in stages[:-1]:
                pieces = stage.split_fast(pieces, at_origin)
            return last.split_fast(pieces, at_origin, map_bytes=False)
        for stage in stages:
            pieces = stage.split_fast(pieces, at_origin)
        return pieces

    def _id_limit(self) -> int:
        """One past the largest id (model vocabulary and added tokens)."""
        ids = [*self.pipeline.model.id_to_token, *self.pipeline.added.by_id, *self.pipeline.extra_tokens]
        return max(ids, default=-1) + 1

    def _bad_id(self, token_id: Any) -> ConfigError:
        return ConfigError(f"token id {token_id!r} is not in tokenizer {self.name!r}")


def _flatten(pre: PreTokenizerStage | None) -> list[PreTokenizerStage]:
    """Nested ``Sequence`` pre-tokenizers as one flat list of stages."""
    if pre is None:
        return []
    if not isinstance(pre, SequencePre):
        return [pre]
    return [s for stage in pre.stages for s in _flatten(stage)]


__all__ = ["HfTokenizer", "Pipeline"]
