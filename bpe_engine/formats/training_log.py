"""A training's merges kept beside the model: ``training.jsonl`` in a saved directory.

The files a model is saved in (merges.txt, tokenizer.json, vocab.txt) say *what* was merged; a run
also knows *why*: each merge's count (or WordPiece score), the words it changed, its runner-up and
the pairs it tied with, and the rule that broke the tie. ``bpe-explorer merges DIR`` shows them,
and a WordPiece model -- whose vocab.txt keeps no merges at all -- can list its merges in training
order from here. One JSON object per merge, numbered from 1 as everywhere (``merge``), the tokens as
the model spells them::

    {"merge": 1, "left": "e", "right": "s", "new": "es", "count": 9, "words": 2,
     "why": {"quantity": "count", "value": 9, "runner_up": ["s", "t"], "runner_up_value": 9,
             "tied": [["s", "t"], ["t", "</w>"]], "tied_total": 2, "rule": "hf: ..."}}

>>> from bpe_engine.training.steps import MergeStep, StepWhy
>>> record = step_record(MergeStep(0, "e", "s", "es", 1, 2, 3, 9, 2, 9, why=StepWhy("count", 9, ("s", "t"), 9, (("s", "t"),), 1, "hf")))
>>> record["merge"], record["why"]["tied"]
(1, [['s', 't']])
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..errors import TokenizerFileError
from ..text_files import check_input
from ..training.steps import MergeStep, StepWhy

LOG_FILE = "training.jsonl"
MAX_LOG_BYTES = 1 << 30  # far above any real run (a 100k-merge log is ~20 MB)


def step_record(step: MergeStep) -> dict[str, Any]:
    """One merge as a JSON object (see the module docstring)."""
    record: dict[str, Any] = {
        "merge": step.rank + 1, "left": step.left, "right": step.right, "new": step.new,
        "count": step.count, "words": step.words_changed,
    }
    if step.score is not None:
        record["score"] = step.score
    if step.why is not None:
        record["why"] = why_record(step.why)
    return record


def why_record(why: StepWhy) -> dict[str, Any]:
    return {
        "quantity": why.quantity,
        "value": why.value,
        "runner_up": list(why.runner_up) if why.runner_up is not None else None,
        "runner_up_value": why.runner_up_value,
        "tied": [list(c) for c in why.tied],
        "tied_total": why.tied_total,
        "rule": why.rule,
    }


def log_text(steps: Iterable[MergeStep]) -> str:
    return "".join(json.dumps(step_record(s), ensure_ascii=False) + "\n" for s in steps)


def read_training_log(directory: str | Path) -> list[dict[str, Any]] | None:
    """The saved merges of ``directory`` in training order, or None when it keeps none."""
    path = Path(directory) / LOG_FILE
    if not os.path.lexists(path):
        return None
    checked = check_input(path, fail=lambda reason: TokenizerFileError(path, reason), expected="a training log")
    if (checked.size or 0) > MAX_LOG_BYTES:
        raise TokenizerFileError(path, f"is larger than {MAX_LOG_BYTES:,} bytes; no training log is that large")
    records: list[dict[str, Any]] = []
    with open(checked.path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise TokenizerFileError(path, f"line {number} is not JSON ({exc.msg})") from None
            if not _valid(record, len(records) + 1):
                raise TokenizerFileError(path, f"line {number} is not merge {len(records) + 1} (merge, left, right, new, count)")
            records.append(record)
    return records


def _valid(record: Any, number: int) -> bool:
    if not isinstance(record, dict) or record.get("merge") != number:
        return False
    strings = all(isinstance(record.get(k), str) for k in ("left", "right", "new"))
    count = record.get("count")
    return strings and isinstance(count, int) and not isinstance(count, bool) and count >= 0


def counts_of(records: Sequence[dict[str, Any]]) -> list[int]:
    return [int(r["count"]) for r in records]


__all__ = ["LOG_FILE", "counts_of", "log_text", "read_training_log", "step_record", "why_record"]
