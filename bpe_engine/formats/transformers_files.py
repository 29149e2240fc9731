"""``tokenizer_config.json`` and ``special_tokens_map.json``: a saved folder ``transformers`` can use.

``tokenizer.json`` alone gives ``AutoTokenizer.from_pretrained(DIR)`` the right ids but no special
tokens: it does not know which added token pads, so ``tokenizer(batch, padding=True)`` fails, and
``bos_token`` / ``eos_token`` / ``mask_token`` are None. These two files say which token plays which
role, as a model published on the hub does. ``tokenizer_class`` is ``PreTrainedTokenizerFast``, the
class that runs ``tokenizer.json`` as it is (a model-specific class such as ``BertTokenizer`` could
rebuild the pipeline from ``vocab.txt`` with its own defaults and other ids).

Where the roles come from, most certain first:

1. what the model declares: WordPiece's unknown, ``[CLS]`` and ``[SEP]`` tokens; SentencePiece's
   ``unk``/``bos``/``eos``/``pad`` pieces; a BPE's unknown token;
2. a special token spelled the way a role is conventionally spelled (:data:`SPELLINGS`: ``[MASK]``,
   ``<pad>``, ``<|endoftext|>`` ...) -- a BPE's specials are whatever the user typed;
3. a model with no padding token pads with its end-of-sequence token, as GPT-2, Llama, Qwen and
   DeepSeek users do (DeepSeek's own ``tokenizer_config.json`` sets ``pad_token`` to its EOS).
   Padded positions have attention mask 0, so the choice never changes what a model reads.

A model with no special tokens at all gets no roles: ``padding=True`` then needs a token added
(``train --special '<|endoftext|>'``), and the files say nothing they cannot back.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ..atomic import atomic_write_text

if TYPE_CHECKING:
    from ..sentencepiece.model_proto import ModelFile

Role = Literal["bos", "eos", "unk", "sep", "pad", "cls", "mask"]
ROLES: tuple[Role, ...] = ("bos", "eos", "unk", "sep", "pad", "cls", "mask")
"""In the order ``transformers`` lists them in ``special_tokens_map.json``."""

SPELLINGS: dict[Role, tuple[str, ...]] = {
    "bos": ("<s>", "<bos>", "[BOS]", "<|startoftext|>", "<|begin_of_text|>", "<|endoftext|>"),
    "eos": ("</s>", "<eos>", "[EOS]", "<|end_of_text|>", "<|endoftext|>"),
    "unk": ("[UNK]", "<unk>", "<|unk|>"),
    "sep": ("[SEP]", "<sep>"),
    "pad": ("[PAD]", "<pad>", "<|pad|>", "<|padding|>"),
    "cls": ("[CLS]", "<cls>"),
    "mask": ("[MASK]", "<mask>", "<|mask|>"),
}
"""Conventional spellings of each role, first match wins. ``<|endoftext|>`` is GPT-2's BOS and EOS
(its ``tokenizer_config.json`` says so) and ends documents in every tiktoken-style vocabulary."""

CONFIG_FILE = "tokenizer_config.json"
MAP_FILE = "special_tokens_map.json"


def special_roles(specials: Iterable[str], declared: Mapping[Role, str | None] | None = None) -> dict[Role, str]:
    """Role -> token for a model whose special tokens are ``specials``; ``declared`` (the roles the
    model itself names) wins over a spelling, and a token must be special to take a role.

    >>> special_roles(["<|endoftext|>"])
    {'bos': '<|endoftext|>', 'eos': '<|endoftext|>', 'pad': '<|endoftext|>'}
    >>> special_roles(["<unk>", "<s>", "</s>"], {"unk": "<unk>"})
    {'bos': '<s>', 'eos': '</s>', 'unk': '<unk>', 'pad': '</s>'}
    """
    present = set(specials)
    roles: dict[Role, str] = {}
    for role in ROLES:
        chosen = (declared or {}).get(role)
        if chosen is None or chosen not in present:
            chosen = next((s for s in SPELLINGS[role] if s in present), None)
        if chosen is not None:
            roles[role] = chosen
    if "pad" not in roles and "eos" in roles:
        roles["pad"] = roles["eos"]
    return {role: roles[role] for role in ROLES if role in roles}


def sentencepiece_roles(model: ModelFile) -> dict[Role, str]:
    """The roles a SentencePiece model declares: its unknown piece, and its ``<s>`` / ``</s>`` /
    ``<pad>`` pieces where they are control pieces (``bos_id=-1`` leaves ``<s>`` out)."""
    from ..sentencepiece.model_proto import PieceType

    specials = [p for p, t in zip(model.pieces, model.types) if t in (PieceType.CONTROL, PieceType.UNKNOWN)]
    declared: dict[Role, str | None] = {
        "unk": model.pieces[model.unk_id], "bos": model.bos_piece, "eos": model.eos_piece, "pad": model.pad_piece
    }
    return special_roles(specials, declared)


def transformers_files(roles: Mapping[Role, str], *, lowercase: bool = False) -> dict[str, str]:
    """File name -> text of the two files for a model with these ``roles``.

    ``lowercase`` is only recorded (``do_lower_case``, what BERT's uncased front end does in
    ``tokenizer.json``); the ids come from ``tokenizer.json`` either way.
    """
    tokens = {f"{role}_token": roles[role] for role in ROLES if role in roles}
    config: dict[str, object] = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        # decode as tokenizer.json decodes (HF's default clean-up would glue "a ." into "a.")
        "clean_up_tokenization_spaces": False,
        **tokens,
    }
    if lowercase:
        config["do_lower_case"] = True
    return {CONFIG_FILE: _json(config), MAP_FILE: _json(tokens)}


def write_transformers_files(directory: Path, roles: Mapping[Role, str], *, lowercase: bool = False) -> dict[str, str]:
    """Write the two files into ``directory`` (a save's fresh directory); returns the record's
    ``files`` entries for them."""
    for name, text in transformers_files(roles, lowercase=lowercase).items():
        atomic_write_text(directory / name, text)
    return {CONFIG_FILE: CONFIG_FILE, MAP_FILE: MAP_FILE}


def _json(record: Mapping[str, object]) -> str:
    return json.dumps(record, ensure_ascii=False, indent=2) + "\n"


__all__ = ["CONFIG_FILE", "MAP_FILE", "ROLES", "Role", "SPELLINGS", "sentencepiece_roles", "special_roles", "transformers_files", "write_transformers_files"]
