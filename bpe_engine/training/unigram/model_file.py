"""The trained Unigram model as ``.model`` bytes (a serialized ``ModelProto`` with its trainer spec)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...sentencepiece.model_proto import PieceType
from ...sentencepiece.model_writer import model_proto_bytes as _proto_bytes
from .config import UnigramTrainerConfig
from .sentences import normalizer_settings

_SPEC_FIELDS = (
    "vocab_size", "character_coverage", "seed_sentencepiece_size", "shrinking_factor", "num_sub_iterations",
    "max_sentencepiece_length", "max_sentence_length", "input_sentence_size", "shuffle_input_sentence",
    "split_by_whitespace", "split_by_unicode_script", "split_by_number", "split_digits",
    "treat_whitespace_as_suffix", "allow_whitespace_only_pieces", "byte_fallback", "unk_id", "bos_id",
    "eos_id", "pad_id", "unk_piece", "bos_piece", "eos_piece", "pad_piece", "unk_surface",
    "user_defined_symbols", "control_symbols", "required_chars", "hard_vocab_limit", "use_all_vocab",
    "vocabulary_output_piece_score", "train_extremely_large_corpus",
)


def model_proto_bytes(pieces: Sequence[tuple[str, float]], types: Sequence[PieceType], config: UnigramTrainerConfig) -> bytes:
    spec: dict[str, Any] = {name: getattr(config, name) for name in _SPEC_FIELDS}
    spec["num_threads"] = 1
    spec["input_format"] = "text"
    if not config.hard_vocab_limit:
        spec["vocab_size"] = len(pieces)  # as Serialize does
    return _proto_bytes(pieces, types, model_type="unigram", trainer_spec=spec, normalizer=normalizer_settings(config))
