"""A Unigram training's story kept beside the model: ``training.jsonl`` in a saved Unigram directory.

A ``.model`` file holds the final pieces and scores; the run also knew how it got there -- the seed
vocabulary, each EM step's objective and kept pieces, each pruning round's losses and runner-up,
the final vocabulary (:mod:`bpe_engine.training.unigram.steps`). One JSON object per step, in
order, with its ``kind`` (``seed``, ``em``, ``prune``, ``final``) and every field of the step; the
arrays (float32 scores and losses, int32 indices) as base64 of their little-endian bytes,
``{"b64": "..."}``, so a step read back is *equal* to the step written, bit for bit::

    {"kind": "em", "index": 1, "round": 0, "sub_iteration": 0, "size_before": 4242, ...,
     "kept_bytes": {"b64": "AAAAAAEAAAA..."}, "why": "..."}

The merge trainers keep their merges in the same file name with other records
(:mod:`.training_log`): a directory's ``bpe-explorer.json`` says which model it holds, and each
reader reads its own.
"""

from __future__ import annotations

import base64
import dataclasses
import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import TokenizerFileError
from ..training.steps import StepWhy
from .training_log import LOG_FILE, MAX_LOG_BYTES, why_of, why_record

if TYPE_CHECKING:
    from ..training.unigram.steps import UnigramStep


def _kinds() -> dict[str, type]:
    from ..training.unigram.steps import EmStep, FinalStep, PruneStep, SeedStep  # numpy: only when a log is used

    return {cls.kind: cls for cls in (SeedStep, EmStep, PruneStep, FinalStep)}


def step_record(step: UnigramStep) -> dict[str, Any]:
    """One step as a JSON object (see the module docstring): its kind, then every field -- arrays
    as base64, its why as :func:`~.training_log.why_record` writes a merge's."""
    record: dict[str, Any] = {"kind": step.kind}
    for field in dataclasses.fields(step):
        value = getattr(step, field.name)
        if isinstance(value, bytes):
            value = {"b64": base64.b64encode(value).decode("ascii")}
        elif isinstance(value, StepWhy):
            value = why_record(value)
        record[field.name] = value
    return record


def log_text(steps: Iterable[UnigramStep]) -> str:
    return "".join(json.dumps(step_record(s), ensure_ascii=False) + "\n" for s in steps)


def write_log(directory: Path, steps: Iterable[UnigramStep]) -> str:
    """Write ``training.jsonl`` into ``directory`` (a save's fresh directory); returns its name."""
    from ..atomic import atomic_write_text

    atomic_write_text(directory / LOG_FILE, log_text(steps))
    return LOG_FILE


def read_unigram_log(directory: str | Path) -> list[UnigramStep] | None:
    """The saved steps of a Unigram ``directory`` in training order, or None when it keeps none;
    a damaged line is a :class:`TokenizerFileError` naming the line."""
    path = Path(directory) / LOG_FILE
    if not path.is_file():
        return None
    if path.stat().st_size > MAX_LOG_BYTES:
        raise TokenizerFileError(path, f"is larger than {MAX_LOG_BYTES:,} bytes; no training log is that large")
    kinds = _kinds()
    steps: list[UnigramStep] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            try:
                record = json.loads(line)
                cls = kinds[record.pop("kind")]
                steps.append(cls(**{f.name: _value(record[f.name]) for f in dataclasses.fields(cls)}))
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise TokenizerFileError(path, f"line {number} is not a Unigram training step ({type(exc).__name__}: {exc})") from None
    return steps


def _value(value: Any) -> Any:
    """A field back from JSON: a why to :class:`StepWhy`, ``{"b64"}`` to bytes, lists to tuples
    (every sequence field of a step is one)."""
    if isinstance(value, dict) and "quantity" in value:
        why = why_of({"why": value})
        if why is None:
            raise ValueError("a why that is not one")
        return why
    if isinstance(value, dict):
        return base64.b64decode(value["b64"], validate=True)
    if isinstance(value, list):
        return tuple(_value(v) for v in value)
    return value


__all__ = ["log_text", "read_unigram_log", "step_record", "write_log"]
