"""The Unigram trainer's options: SentencePiece's own names, defaults and range checks (0.2.1).

The names are ``TrainerSpec`` / ``NormalizerSpec`` field names, so a command that works with
``spm.SentencePieceTrainer.train(...)`` reads the same here. :meth:`UnigramTrainerConfig.validate`
makes the checks ``trainer_interface.cc`` (``VerifySpec``, ``InitMetaPieces``) makes, and refuses by
name the options this trainer does not implement instead of ignoring them.

>>> UnigramTrainerConfig(vocab_size=1000).desired_vocab_size
1100
>>> UnigramTrainerConfig(vocab_size=1000, shrinking_factor=0.3).validate()
Traceback (most recent call last):
...
bpe_engine.errors.ConfigError: shrinking_factor must be between 0.5 and 0.95 (SentencePiece's range), got 0.3
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...choices import ModelName
from ...errors import ConfigError
from ...sentencepiece.model_proto import PieceType, byte_piece
from ...sentencepiece.scores import to_f32
from ..bpe.config import check_vocab_size

SUPPORTED_RULES = ("nmt_nfkc", "identity")


@dataclass(frozen=True, slots=True)
class UnigramTrainerConfig:
    """Every option with SentencePiece 0.2.1's default. Only ``vocab_size`` is usually set."""

    model: ClassVar[ModelName] = "unigram"
    byte_level: ClassVar[bool] = False  # byte_fallback pieces are <0xNN>, not a byte alphabet
    continuing_prefix: ClassVar[None] = None
    front_end: ClassVar[None] = None  # it reads sentences, one a line, and splits them itself

    vocab_size: int = 8000
    character_coverage: float = 0.9995
    seed_sentencepiece_size: int = 1_000_000
    shrinking_factor: float = 0.75
    num_sub_iterations: int = 2
    max_sentencepiece_length: int = 16
    max_sentence_length: int = 4192
    input_sentence_size: int = 0
    shuffle_input_sentence: bool = True
    split_by_whitespace: bool = True
    split_by_unicode_script: bool = True
    split_by_number: bool = True
    split_digits: bool = False
    treat_whitespace_as_suffix: bool = False
    allow_whitespace_only_pieces: bool = False
    normalization_rule_name: str = "nmt_nfkc"
    add_dummy_prefix: bool = True
    remove_extra_whitespaces: bool = True
    byte_fallback: bool = False
    unk_id: int = 0
    bos_id: int = 1
    eos_id: int = 2
    pad_id: int = -1
    unk_piece: str = "<unk>"
    bos_piece: str = "<s>"
    eos_piece: str = "</s>"
    pad_piece: str = "<pad>"
    unk_surface: str = " \u2047 "
    user_defined_symbols: tuple[str, ...] = ()
    control_symbols: tuple[str, ...] = ()
    required_chars: str = ""
    hard_vocab_limit: bool = True
    use_all_vocab: bool = False
    vocabulary_output_piece_score: bool = True
    model_type: str = "unigram"
    input_format: str = "text"
    seed_sentencepieces_file: str = ""
    pretokenization_delimiter: str = ""
    enable_differential_privacy: bool = False
    train_extremely_large_corpus: bool = False
    extra: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    @property
    def desired_vocab_size(self) -> int:
        """``size_t(vocab_size * 1.1)``: EM stops pruning at or below this size."""
        return int(self.vocab_size * 1.1)

    @property
    def shrinking_factor_f32(self) -> float:
        """The factor as the proto's ``float`` holds it (it multiplies a size in float)."""
        return to_f32(self.shrinking_factor)

    def replace(self, **changes: Any) -> UnigramTrainerConfig:  # each field its own type: dataclasses.replace checks the names
        return dataclasses.replace(self, **changes)

    def validate(self) -> UnigramTrainerConfig:
        """Raise :class:`ConfigError` naming the option; return self when every option is usable."""
        if self.extra:
            name = sorted(self.extra)[0]
            raise ConfigError(f"{name} is not an option of the Unigram trainer (SentencePiece names: see UnigramTrainerConfig)", field=name)
        refused = {
            "model_type": (self.model_type != "unigram", "only 'unigram' is trained here"),
            "input_format": (self.input_format != "text", "only 'text' input (one sentence a line) is supported"),
            "seed_sentencepieces_file": (bool(self.seed_sentencepieces_file), "is not supported: seeds come from the corpus"),
            "pretokenization_delimiter": (bool(self.pretokenization_delimiter), "is not supported"),
            "enable_differential_privacy": (self.enable_differential_privacy, "is not supported"),
            "use_all_vocab": (self.use_all_vocab, "is valid for WORD/CHAR models only (SentencePiece refuses it for UNIGRAM)"),
        }
        for name, (bad, why) in refused.items():
            if bad:
                raise ConfigError(f"{name} {why}", field=name)
        if self.normalization_rule_name not in SUPPORTED_RULES:
            raise ConfigError(
                f"normalization_rule_name {self.normalization_rule_name!r} is not supported; use one of {', '.join(SUPPORTED_RULES)}",
                field="normalization_rule_name",
            )
        if self.input_sentence_size > 0 and self.shuffle_input_sentence:
            raise ConfigError(
                "input_sentence_size with shuffle_input_sentence=true samples sentences at random; "
                "set shuffle_input_sentence=false to train on the first input_sentence_size sentences (exactly as SentencePiece)",
                field="input_sentence_size",
            )
        check_vocab_size(self.vocab_size)
        ranges = [
            ("character_coverage", self.character_coverage, 0.98, 1.0),
            ("max_sentencepiece_length", self.max_sentencepiece_length, 1, 512),
            ("num_sub_iterations", self.num_sub_iterations, 1, 10),
            ("shrinking_factor", self.shrinking_factor, 0.5, 0.95),
            ("max_sentence_length", self.max_sentence_length, 10, 1073741824),
        ]
        for name, value, low, high in ranges:
            checked = to_f32(value) if isinstance(value, float) else value
            if not low <= checked <= high:
                raise ConfigError(f"{name} must be between {low} and {high} (SentencePiece's range), got {value}", field=name)
        if 0 < self.input_sentence_size <= 100:
            raise ConfigError(f"input_sentence_size must be 0 (all) or above 100, got {self.input_sentence_size}", field="input_sentence_size")
        if self.seed_sentencepiece_size <= 0:
            raise ConfigError(f"seed_sentencepiece_size must be positive, got {self.seed_sentencepiece_size}", field="seed_sentencepiece_size")
        for name in ("unk_piece", "bos_piece", "eos_piece", "pad_piece"):
            if not getattr(self, name):
                raise ConfigError(f"{name} must not be empty", field=name)
        for name, symbols in (("user_defined_symbols", self.user_defined_symbols), ("control_symbols", self.control_symbols)):
            if any(not s for s in symbols):
                raise ConfigError(f"{name} must not hold an empty symbol", field=name)
        self.meta_pieces()  # the id checks
        return self

    def meta_pieces(self) -> dict[int, tuple[str, PieceType]]:
        """Id -> (piece, type) of the special pieces, as ``InitMetaPieces`` numbers them."""
        meta: dict[int, tuple[str, PieceType]] = {}
        has_unk = False
        for name, id_, piece in (
            ("unk_id", self.unk_id, self.unk_piece),
            ("bos_id", self.bos_id, self.bos_piece),
            ("eos_id", self.eos_id, self.eos_piece),
            ("pad_id", self.pad_id, self.pad_piece),
        ):
            if id_ < 0:
                continue
            if id_ >= self.vocab_size:
                raise ConfigError(f"{name} {id_} must be below vocab_size {self.vocab_size}", field=name)
            if id_ in meta or (has_unk and piece == self.unk_piece):
                raise ConfigError(f"{name} {id_} is already taken by {meta.get(id_, (piece,))[0]!r}", field=name)
            is_unk = piece == self.unk_piece
            has_unk = has_unk or is_unk
            meta[id_] = (piece, PieceType.UNKNOWN if is_unk else PieceType.CONTROL)
        if not has_unk:
            raise ConfigError(f"unk_id must be set (>= 0): {self.unk_piece} must be defined", field="unk_id")
        seen: set[str] = set()
        next_id = 0
        specials = {self.bos_piece: self.bos_id, self.eos_piece: self.eos_id, self.pad_piece: self.pad_id}
        symbols = [(s, PieceType.CONTROL) for s in self.control_symbols]
        symbols += [(s, PieceType.USER_DEFINED) for s in self.user_defined_symbols]
        if self.byte_fallback:
            symbols += [(byte_piece(b), PieceType.BYTE) for b in range(256)]
        for piece, kind in symbols:
            if piece in seen:
                raise ConfigError(f"{piece!r} is already defined: duplicated symbols are not allowed", field="user_defined_symbols")
            seen.add(piece)
            if piece == self.unk_piece:
                raise ConfigError(f"{self.unk_piece} must not be defined with control_symbols and user_defined_symbols", field="user_defined_symbols")
            if specials.get(piece, -1) >= 0:
                meta[specials[piece]] = (piece, kind)
                continue
            while next_id in meta:
                next_id += 1
            meta[next_id] = (piece, kind)
        return meta
