"""Mistral's Tekken tokenizer files (``tekken_*.json``): tiktoken byte ranks behind 1,000 special ids.

A Tekken file is tiktoken's model written as JSON: ``vocab`` is a list of
``{"rank", "token_bytes" (base64), "token_str"}`` in rank order, ``config`` holds the regex
(``pattern``), ``default_vocab_size`` (131,072 for ``tekken_240911.json``) and
``default_num_special_tokens`` (1,000). The rules below are read from ``mistral_common`` 1.13.1,
``mistral_common/tokens/tokenizers/tekken.py`` (``Tekkenizer.__init__``, ``from_file``,
``_reload_mergeable_ranks``, ``encode``):

- Special tokens take the **first** ids, ``0 .. num_special - 1``. They come from the file's
  ``special_tokens`` list, or -- for files of version v7 or older without one, like
  ``tekken_240911.json`` (v3) -- from mistral_common's fixed list of 20 (``<unk>``, ``<s>``,
  ``</s>``, ``[INST]`` ...); the remaining ids up to ``num_special`` are fillers ``<SPECIAL_{id}>``.
- Only the first ``default_vocab_size - num_special`` byte ranks are kept (130,072 of 150,000);
  a byte rank ``r`` is token id ``r + num_special``. Shifting every rank by the same constant keeps
  tiktoken's merge order, so :meth:`BpeTokenizer.from_ranks` takes the shifted table as it is.
- Encoding is tiktoken's with *no* special tokens: mistral_common's ``encode`` sends ``<s>`` in the
  text through the byte ranks like any other text. Our ``special_mode="text"`` is exactly that; the
  ``special`` mode additionally maps special-token text to its id.
- Decoding keeps special tokens' text (mistral_common's ``SpecialTokenPolicy.KEEP``); its default
  policy drops them, which no plain encode can produce anyway.
"""

from __future__ import annotations

import binascii
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.json_files import load_json
from ..errors import TokenizerFileError
from ..pretokenizers import TIKTOKEN_STYLE, PreTokenizer

if TYPE_CHECKING:
    from ..bpe.model import BpeTokenizer

# The pattern of tekken_240911.json (config.pattern), kept here so that a tokenizer built from it
# can be recognised as tiktoken-compatible (bpe_engine.bpe.tiktoken_bridge; parity in tests/test_tekken.py).
TEKKEN_PATTERN = (
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"
    r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
# Like tiktoken, text the regex does not match is dropped (keeps_unmatched=False; this pattern matches
# every character anyway); it is linear like o200k's, so it runs without run_regex's time budget.
# Its pieces meet spaces and line breaks as o200k's do (only digits differ), so it is safe to cut at
# the same places (a space after a letter or digit, a line start): tests/engine/test_encode_stream.py.
TEKKEN = PreTokenizer("tekken", TEKKEN_PATTERN, **TIKTOKEN_STYLE, description="Mistral Tekken regex (o200k-like, one digit per piece)")

# mistral_common's Tekkenizer.DEPRECATED_SPECIAL_TOKENS (ids 0..19), used by files of version <= v7
# that carry no special_tokens list of their own.
LEGACY_SPECIAL_TOKENS: tuple[str, ...] = (
    "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]", "[IMG_END]",
    "[PREFIX]", "[MIDDLE]", "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CONTENT]",
)  # fmt: skip
LAST_LEGACY_VERSION = 7
FILLER_TEMPLATE = "<SPECIAL_{id}>"


def load_tekken(path: str | Path, *, name: str | None = None) -> BpeTokenizer:
    """The tokenizer of a Tekken JSON file, ids equal to mistral_common's ``Tekkenizer``.

    Malformed files raise :class:`TokenizerFileError` naming the field at fault.
    """
    from ..bpe.model import BpeTokenizer

    path = Path(path)
    data = load_json(path, unique_keys=False)  # vocab is a list; ranks and bytes are checked below
    if not isinstance(data, dict) or not isinstance(data.get("config"), dict) or not isinstance(data.get("vocab"), list):
        raise TokenizerFileError(path, "not a Tekken file: expected an object with 'config' and a 'vocab' list")
    config = data["config"]
    pattern = _field(path, config, "pattern", str)
    vocab_size = _field(path, config, "default_vocab_size", int)
    n_special = _field(path, config, "default_num_special_tokens", int)
    vocab: list[Any] = data["vocab"]
    if not 0 <= vocab_size - n_special <= len(vocab):
        raise TokenizerFileError(
            path,
            f"config.default_vocab_size {vocab_size} needs {vocab_size - n_special} byte ranks after "
            f"{n_special} special ids, but the vocab lists {len(vocab)}",
        )
    specials = special_tokens(path, data, n_special)
    ranks = byte_ranks(path, vocab[: vocab_size - n_special], offset=n_special)
    pre = TEKKEN if pattern == TEKKEN_PATTERN else PreTokenizer(
        "tekken-regex", pattern, keeps_unmatched=False, description="the Tekken file's own regex (time-budgeted)"
    )
    return BpeTokenizer.from_ranks(
        name=name or path.stem, mergeable_ranks=ranks, pre_tokenizer=pre, special_tokens=specials
    )


def special_tokens(path: Path, data: dict[str, Any], n_special: int) -> dict[str, int]:
    """text -> id of the ``n_special`` special tokens (declared, legacy or filler), as mistral_common."""
    declared = data.get("special_tokens")
    if declared is None:
        version = str(data["config"].get("version", ""))
        number = int(version[1:]) if version[:1] == "v" and version[1:].isdigit() else None
        if number is None or number > LAST_LEGACY_VERSION:
            raise TokenizerFileError(
                path, f"has no 'special_tokens' list, which files of version {version or '(none)'} must carry"
            )
        declared = [{"rank": i, "token_str": s} for i, s in enumerate(LEGACY_SPECIAL_TOKENS)]
    if not isinstance(declared, list) or not all(isinstance(t, dict) for t in declared):
        raise TokenizerFileError(path, "'special_tokens' must be a list of objects")
    out: dict[str, int] = {}
    for entry in declared:
        text, rank = entry.get("token_str"), entry.get("rank")
        if not isinstance(text, str) or not isinstance(rank, int) or not 0 <= rank < n_special:
            raise TokenizerFileError(path, f"special token {entry!r} needs a token_str and a rank below {n_special}")
        if text in out or rank in out.values():
            raise TokenizerFileError(path, f"special token {text!r} (rank {rank}) is listed twice")
        out[text] = rank
    if len(out) > n_special:
        raise TokenizerFileError(path, f"lists {len(out)} special tokens, more than default_num_special_tokens {n_special}")
    for i in range(len(out), n_special):
        filler = FILLER_TEMPLATE.format(id=i)
        if filler in out or i in out.values():
            raise TokenizerFileError(path, f"filler special token {filler!r} (id {i}) clashes with a declared one")
        out[filler] = i
    return out


def byte_ranks(path: Path, vocab: list[Any], *, offset: int) -> dict[bytes, int]:
    """bytes -> token id (rank + ``offset``) of the kept vocab entries, checked as mistral_common
    does: entry ``i`` has rank ``i``, the first 256 are the single bytes in order, no bytes twice."""
    a2b = binascii.a2b_base64
    try:
        # strict: the lenient decoder drops what is not base64, so "!!!" was an empty token
        tokens = [a2b(entry["token_bytes"], strict_mode=True) for entry in vocab]
        ordered = [entry["rank"] for entry in vocab] == list(range(len(vocab)))
    except (TypeError, KeyError, binascii.Error, ValueError) as exc:
        at = _first_bad_entry(vocab)
        where = f"vocab entry {at}: " if at is not None else ""
        raise TokenizerFileError(path, f"{where}vocab entries need 'rank' and base64 'token_bytes' ({exc})") from None
    empty = next((i for i, token in enumerate(tokens) if not token), None)
    if empty is not None:
        raise TokenizerFileError(path, f"vocab entry {empty} has empty token_bytes (base64 of zero bytes)")
    if not ordered:
        at = next(i for i, entry in enumerate(vocab) if entry["rank"] != i)
        raise TokenizerFileError(path, f"vocab entry {at} has rank {vocab[at]['rank']!r}; ranks must run 0, 1, 2, ...")
    bad = next((i for i in range(min(256, len(tokens))) if tokens[i] != bytes([i])), None)
    if bad is not None or len(tokens) < 256:
        bad_at = bad if bad is not None else len(tokens)
        raise TokenizerFileError(path, f"vocab entry {bad_at} must be the single byte 0x{bad_at:02x}")
    ranks = dict(zip(tokens, range(offset, offset + len(tokens))))
    if len(ranks) != len(tokens):
        raise TokenizerFileError(path, "a token's bytes are listed twice in the vocab")
    return ranks


def _first_bad_entry(vocab: list[Any]) -> int | None:
    """The index of the first vocab entry without a rank or valid base64 bytes (for the message)."""
    for i, entry in enumerate(vocab):
        try:
            entry["rank"]
            binascii.a2b_base64(entry["token_bytes"], strict_mode=True)
        except (TypeError, KeyError, binascii.Error, ValueError):
            return i
    return None


def _field(path: Path, config: dict[str, Any], key: str, kind: type) -> Any:
    value = config.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TokenizerFileError(path, f"config.{key} is missing or not a {kind.__name__}")
    return value


__all__ = ["LEGACY_SPECIAL_TOKENS", "TEKKEN", "TEKKEN_PATTERN", "load_tekken"]
