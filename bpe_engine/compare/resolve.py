"""Row specs of the comparison -> tokenizers: the baselines by name, everything else through the
registry (reference names, saved directories, tokenizer files).

>>> resolve_tokenizer("characters").name
'characters'
>>> parse_specs(" gpt2, words ,,")
['gpt2', 'words']
"""

from __future__ import annotations

from ..errors import ConfigError
from ..registry import BERT_NAME, available_tokenizers, load_tokenizer
from ..types import Tokenizer
from .baselines import CharacterTokenizer, WhitespaceWordTokenizer

BASELINE_NAMES: dict[str, str] = {
    "characters": "characters",
    "chars": "characters",
    "words": "words",
    "whitespace": "words",
    "whitespace-words": "words",
}
WORDPIECE_ALIASES = ("wordpiece", "bert")


def resolve_tokenizer(spec: str) -> Tokenizer:
    """The tokenizer a row spec names. ``ours`` only exists inside the app (the model being
    trained); from the command line, pass the directory it was saved to instead."""
    key = spec.strip()
    base = BASELINE_NAMES.get(key.lower())
    if base == "characters":
        return CharacterTokenizer()
    if base == "words":
        return WhitespaceWordTokenizer()
    if key.lower() in WORDPIECE_ALIASES:
        key = BERT_NAME
    if key.lower() == "ours":
        raise ConfigError("'ours' is the tokenizer being trained in the app; pass the directory it was saved to")
    return load_tokenizer(key)


def default_specs() -> list[str]:
    """Characters, words, WordPiece when installed, and the three references of the comparison."""
    specs = ["characters", "words"]
    if BERT_NAME in available_tokenizers():
        specs.append(BERT_NAME)
    return specs + ["gpt2", "cl100k_base", "o200k_base"]


def parse_specs(value: str) -> list[str]:
    """A comma-separated list of specs (blank entries ignored); an empty list is an error."""
    specs = [s.strip() for s in value.split(",") if s.strip()]
    if not specs:
        raise ConfigError("--tokenizers needs at least one name, e.g. --tokenizers gpt2,cl100k_base")
    return specs
