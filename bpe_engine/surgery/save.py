"""Write a changed tokenizer in the base's own formats beside ours, with what changed in ids.

``save_spec`` (:mod:`bpe_engine.formats.bundle`) already writes every format a BPE fits:
``tokenizer.json`` always (HF's; a rank table as ``ignore_merges``, Qwen's NFC as HF's ``NFC``
normalizer), ``vocab.json`` + ``merges.txt`` (GPT-2's files; every byte-level model) and
``NAME.tiktoken`` (a byte-level model whose ids grow with merge rank: every rank table). This
module adds what those files cannot say:

* ``tiktoken.json`` for a tiktoken-style base -- the other arguments of ``tiktoken.Encoding``
  (``pat_str``, ``special_tokens``, ``explicit_n_vocab``), so
  ``tiktoken.Encoding(**settings, mergeable_ranks=load_tiktoken_bpe(...))`` is the model; and the
  normal form a Qwen base puts text in first, which tiktoken itself does not apply;
* ``surgery.json`` -- the base, the new ids (the embedding rows a model must gain), and for a
  prune the ids removed and the old id -> new id mapping.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..bpe.model import BpeTokenizer
from ..bpe.rank_table import RankTable
from ..formats import save_spec
from ..formats.bundle import _safe_file_stem
from ..formats.spec import BpeSpec, spec_from_tokenizer
from ..training.steps import MergeStep
from .base import BpeBase

SURGERY_FILE = "surgery.json"
TIKTOKEN_SETTINGS_FILE = "tiktoken.json"


def surgery_spec(tokenizer: BpeTokenizer, name: str) -> BpeSpec:
    """The files' view of a model; a rank table's merges are the derived ones (a rank without a
    pair has none: HF's ``ignore_merges`` reaches it as a whole piece, as tiktoken does)."""
    table = tokenizer._table
    if not isinstance(table, RankTable):
        spec = spec_from_tokenizer(tokenizer)
        spec.name = name
        return spec
    return BpeSpec(
        name=name,
        vocab=dict(tokenizer.vocab),
        merges=[(left, right) for _, left, right in table.derived_merges()[0]],
        pre_tokenizer=tokenizer.pre_tokenizer,
        byte_level=True,
        special_tokens=tokenizer.special_tokens,
        rank_table=True,
        normalizer=tokenizer.capabilities.normalizer,
    )


def save_changed(
    tokenizer: BpeTokenizer,
    base: BpeBase,
    directory: str | Path,
    *,
    name: str,
    operation: str,
    steps: Sequence[MergeStep] | None = None,
    new_ids: Sequence[int] = (),
    id_map: Mapping[int, int] | None = None,
) -> list[Path]:
    """Save ``tokenizer`` (``base`` after ``operation``) into ``directory``: every format it fits
    and the two records of the module docstring; returns the files written."""
    spec = surgery_spec(tokenizer, name)
    extra: dict[str, str] = {SURGERY_FILE: _json(surgery_record(base, operation, new_ids, id_map))}
    if spec.rank_table:
        extra[TIKTOKEN_SETTINGS_FILE] = _json(tiktoken_settings(tokenizer, f"{_safe_file_stem(name)}.tiktoken"))
    return save_spec(spec, directory, steps=steps, extra_files=extra)


def tiktoken_settings(tokenizer: BpeTokenizer, rank_file: str) -> dict[str, Any]:
    """What ``tiktoken.Encoding`` needs besides the ranks."""
    ids = [*(tokenizer.mergeable_ranks or {}).values(), *tokenizer.special_tokens.values()]
    record: dict[str, Any] = {
        "name": tokenizer.name,
        "mergeable_ranks": rank_file,
        "pat_str": tokenizer.pre_tokenizer.pattern,
        "special_tokens": dict(sorted(tokenizer.special_tokens.items(), key=lambda item: item[1])),
    }
    if len(set(ids)) == max(ids) + 1:  # tiktoken checks it only against ids without holes
        record["explicit_n_vocab"] = max(ids) + 1
    if tokenizer.capabilities.normalizer is not None:
        record["normalize_first"] = tokenizer.capabilities.normalizer
        record["note"] = f"tiktoken does not normalize: put text in {tokenizer.capabilities.normalizer} before encoding, as the model does"
    return record


def surgery_record(base: BpeBase, operation: str, new_ids: Sequence[int], id_map: Mapping[int, int] | None) -> dict[str, Any]:
    """``surgery.json``: where the model came from and what happened to its ids."""
    record: dict[str, Any] = {"base": base.name, "operation": operation, "base_next_id": base.next_id}
    if new_ids:
        record["new_ids"] = {"first": min(new_ids), "last": max(new_ids), "count": len(new_ids)}
        record["note"] = (
            f"{len(new_ids):,} new ids ({min(new_ids):,}-{max(new_ids):,}): a model needs embedding rows "
            "(and output rows) for them; every other id means what it meant in the base"
        )
    if id_map is not None:
        removed = sorted(set(base_ids(base)) - set(id_map))
        record["removed_ids"] = removed
        record["id_map"] = {str(old): new for old, new in sorted(id_map.items())}
    return record


def base_ids(base: BpeBase) -> list[int]:
    """Every id the base uses (ordinary tokens and specials)."""
    return sorted({*base.vocab.values(), *base.specials.values()})


def _json(record: Mapping[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, indent=2) + "\n"
