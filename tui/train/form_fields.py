"""The settings form's fields, which models they belong to, and the config they build.

Every field names the config field it sets (``config_field``), so a
:class:`~bpe_engine.errors.ConfigError` that names a config field is shown under the widget that
sets it. Choices come from :mod:`bpe_engine.choices`, defaults from the configs themselves (the
CLI's defaults): the app adds no rule of its own but "this field holds a number".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from textual.widget import Widget
from textual.widgets import Select

from bpe_engine.choices import END_OF_WORD_STYLES, MODELS, PRE_TOKENIZERS, TIE_BREAKS, Choice
from bpe_engine.pretokenizers import get_pretokenizer, with_end_of_word
from bpe_engine.training.bpe.config import DEFAULT_MAX_TOKEN_LENGTH, BpeTrainerConfig
from bpe_engine.training.unigram.config import UnigramTrainerConfig
from bpe_engine.training.wordpiece import WordPieceTrainerConfig
from bpe_engine.wordpiece.bert_normalizer import BertNormalizer
from bpe_engine.wordpiece.model import BERT_SPECIALS

from ..widgets.safe_text import SafeInput

Kind = Literal["select", "int", "float", "text"]
BERT_FRONT_END = Choice("bert", "BERT (normalise, split)", "BERT's normaliser and whitespace/punctuation split")
_UNIGRAM = UnigramTrainerConfig()
_WORDPIECE = WordPieceTrainerConfig()


@dataclass(frozen=True)
class Field:
    widget_id: str
    label: str
    kind: Kind
    models: tuple[str, ...]
    config_field: str
    default: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    tooltip: str | None = None
    placeholder: str = field(default="", compare=False)


def _pairs(choices: tuple[Choice[Any], ...]) -> tuple[tuple[str, str], ...]:
    return tuple((c.label, c.value) for c in choices)


_ALL = ("bpe", "wordpiece", "unigram")
FIELDS: dict[str, Field] = {f.widget_id: f for f in (
    Field("model", "model", "select", _ALL, "model", "bpe", _pairs(MODELS)),
    Field("level", "level", "select", ("bpe",), "byte_level", "byte", (("byte-level", "byte"), ("character", "char"))),
    Field("pretok", "pre-tok", "select", ("bpe", "wordpiece"), "pre_tokenizer", "gpt2",
          (*_pairs(PRE_TOKENIZERS), (BERT_FRONT_END.label, BERT_FRONT_END.value))),
    Field("regex", "regex", "text", ("bpe", "wordpiece"), "pattern", placeholder="custom pattern"),
    Field("vocab", "vocab", "int", _ALL, "vocab_size", "1000"),
    Field("minfreq", "min freq", "int", ("bpe", "wordpiece"), "min_frequency", "0",
          tooltip="stop when the best pair occurs fewer times (WordPiece: the CLI's default 2)"),
    Field("tiebreak", "tie-break", "select", ("bpe",), "tie_break", "hf", _pairs(TIE_BREAKS),
          tooltip="which pair wins when counts tie"),
    Field("eow", "</w>", "select", ("bpe",), "end_of_word", "attached", _pairs(END_OF_WORD_STYLES),
          tooltip="end-of-word pre-tokenizer: </w> attached (l o w</w>, HF) or separate (l o w </w>)"),
    Field("maxlen", "max len", "int", ("bpe",), "max_token_length", str(DEFAULT_MAX_TOKEN_LENGTH),
          tooltip="no merge makes a token this long or longer (bytes for byte-level); 0 = no limit"),
    Field("unk", "unk", "text", ("bpe", "wordpiece"), "unk_token", placeholder="none",
          tooltip="a special token for characters the alphabet lacks (character-level; WordPiece: [UNK])"),
    Field("lowercase", "lowercase", "select", ("wordpiece",), "normalizer", "yes", (("yes", "yes"), ("no", "no")),
          tooltip="BERT's normaliser lowercases (bert-base-uncased)"),
    Field("accents", "accents", "select", ("wordpiece",), "normalizer", "auto",
          (("strip if lowercase", "auto"), ("strip", "strip"), ("keep", "keep"))),
    Field("coverage", "coverage", "float", ("unigram",), "character_coverage", str(_UNIGRAM.character_coverage),
          tooltip="character_coverage: the share of characters kept; the rarest others become <unk>"),
    Field("maxpiece", "max piece", "int", ("unigram",), "max_sentencepiece_length", str(_UNIGRAM.max_sentencepiece_length),
          tooltip="max_sentencepiece_length: the longest piece, in characters"),
    Field("shrink", "shrinking", "float", ("unigram",), "shrinking_factor", str(_UNIGRAM.shrinking_factor),
          tooltip="shrinking_factor: the share of pieces each pruning round keeps"),
    Field("subiter", "EM iters", "int", ("unigram",), "num_sub_iterations", str(_UNIGRAM.num_sub_iterations),
          tooltip="num_sub_iterations: EM iterations between two pruning rounds"),
)}

MODEL_ROWS: dict[str, tuple[str, str | None]] = {
    "row-model": ("model", "level"),
    "row-pretok": ("pretok", "regex"),
    "row-vocab": ("vocab", "minfreq"),
    "row-tiebreak": ("tiebreak", "eow"),
    "row-maxlen": ("maxlen", "unk"),
    "row-normalizer": ("lowercase", "accents"),
    "row-coverage": ("coverage", "maxpiece"),
    "row-em": ("shrink", "subiter"),
}
"""The form's lines, two fields each; a line shows when one of its fields belongs to the model."""


def widget_for(f: Field) -> Widget:
    if f.kind == "select":
        return Select(f.choices, value=f.default, allow_blank=False, compact=True, id=f.widget_id, tooltip=f.tooltip)
    kind = {"int": "integer", "float": "number", "text": "text"}[f.kind]
    return SafeInput(f.default, type=kind, compact=True, id=f.widget_id, placeholder=f.placeholder, tooltip=f.tooltip)


def _number(values: Mapping[str, Any], widget_id: str, kind: type[int] | type[float]) -> Any:
    """The field's number; ``ValueError(widget_id, message)`` when it holds none."""
    raw = str(values[widget_id]).strip()
    try:
        return kind(raw)
    except ValueError:
        example = "e.g. 1000" if kind is int else "e.g. 0.9995"
        raise ValueError(widget_id, f"a {'whole ' if kind is int else ''}number, {example}") from None


def _pre_tokenizer(values: Mapping[str, Any], model: str) -> Any:
    name = str(values["pretok"])
    if name == BERT_FRONT_END.value:
        if model != "wordpiece":
            raise ValueError("pretok", "BERT's front end is WordPiece's: pick a regex for BPE")
        return None
    pre = get_pretokenizer(name, str(values["regex"]) or None)
    if model == "bpe" and pre.end_of_word_suffix is not None:
        pre = with_end_of_word(pre, str(values["eow"]))  # type: ignore[arg-type]
    return pre


def build_config(model: str, values: Mapping[str, Any]) -> Any:
    """The config of ``model`` from the fields' raw ``values`` (widget id -> value): raises
    :class:`~bpe_engine.errors.ConfigError` (from the config itself) or ``ValueError(widget, why)``."""
    vocab = _number(values, "vocab", int)
    if model == "unigram":
        return UnigramTrainerConfig(
            vocab_size=vocab,
            character_coverage=_number(values, "coverage", float),
            max_sentencepiece_length=_number(values, "maxpiece", int),
            shrinking_factor=_number(values, "shrink", float),
            num_sub_iterations=_number(values, "subiter", int),
        ).validate()
    unk = str(values["unk"]).strip() or None
    if model == "wordpiece":
        unk = unk or _WORDPIECE.unk_token
        accents = {"auto": None, "strip": True, "keep": False}[str(values["accents"])]
        return WordPieceTrainerConfig(
            vocab_size=vocab,
            min_frequency=_number(values, "minfreq", int),
            pre_tokenizer=_pre_tokenizer(values, model),
            special_tokens=tuple(dict.fromkeys([*BERT_SPECIALS, unk])),
            unk_token=unk,
            normalizer=BertNormalizer(lowercase=values["lowercase"] == "yes", strip_accents=accents),
        )
    return BpeTrainerConfig(
        vocab_size=vocab,
        byte_level=values["level"] == "byte",
        pre_tokenizer=_pre_tokenizer(values, model),
        min_frequency=_number(values, "minfreq", int),
        tie_break=str(values["tiebreak"]),  # type: ignore[arg-type]
        max_token_length=_number(values, "maxlen", int) or None,
        unk_token=unk,
    )


MODEL_DEFAULTS: dict[str, dict[str, str]] = {
    "wordpiece": {"pretok": BERT_FRONT_END.value, "minfreq": str(_WORDPIECE.min_frequency)},
    "bpe": {"pretok": "gpt2", "minfreq": "0"},
}
"""Fields a change of model resets to that model's defaults (the CLI's): WordPiece trains on BERT's
words with minimum frequency 2, BPE on the gpt2 regex with none."""


__all__ = ["BERT_FRONT_END", "FIELDS", "MODEL_DEFAULTS", "MODEL_ROWS", "Field", "build_config", "widget_for"]
