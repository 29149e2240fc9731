"""The options every trainer that counts words shares: the vocabulary size and the pre-tokenizer.

Declared once here, so BPE, WordPiece and the trainers built on BPE offer them alike -- the same
CLI flag, the same form field, the same reading of the value. The pre-tokenizer options are the
corpus flags every command shares (``--pre-tokenizer``, ``--pattern``: ``cli=False``, read from the
parsed arguments by name); in the form they are fields like any other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..choices import PRE_TOKENIZERS, Choice
from .registry import Option, OptionValues

if TYPE_CHECKING:
    from ..pretokenizers import PreTokenizer

VOCAB = Option(
    "vocab", "vocab", "int", "vocab_size", "target vocabulary size (1 to 1,000,000)", flag="--vocab-size", default="1000", cli=False
)
"""``--vocab-size`` is every trainer's (a required flag of ``train`` itself); the form's ``vocab``."""

BERT_FRONT_END = Choice("bert", "BERT (normalise, split)", "BERT's normaliser and whitespace/punctuation split")
PRE_TOKENIZER = Option(
    "pretok", "pre-tok", "select", "pre_tokenizer", "how text is cut into words before merging",
    flag="--pre-tokenizer", choices=PRE_TOKENIZERS, default="gpt2", cli=False,
)
PATTERN = Option(
    "regex", "regex", "text", "pattern", "your own pre-tokenizer regex", flag="--pattern", cli=False,
    placeholder="custom pattern", enables=("pretok", ("regex",)),
)


def pre_tokenizer_from(values: OptionValues, default: str | None = "gpt2") -> PreTokenizer | None:
    """The pre-tokenizer the ``pretok`` and ``regex`` values name (a pattern alone means a regex,
    a pattern with another named pre-tokenizer is a mistake); ``default`` when neither is given
    (None: the trainer's own front end, WordPiece's BERT split)."""
    from ..errors import ConfigError
    from ..pretokenizers import get_pretokenizer

    name, pattern = values.get("pretok"), values.get("regex") or None
    if pattern is not None and name not in (None, "regex"):
        raise ConfigError(f"--pattern only goes with --pre-tokenizer regex (got --pre-tokenizer {name})", field="pattern")
    if pattern is not None:
        name = "regex"
    name = name or default
    if name is None or name == BERT_FRONT_END.value:
        return None
    return get_pretokenizer(name, pattern)


__all__ = ["BERT_FRONT_END", "PATTERN", "PRE_TOKENIZER", "VOCAB", "pre_tokenizer_from"]
