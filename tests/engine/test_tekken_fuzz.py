"""The Tekken loader joins the fuzz harness every other loader is under.

Random JSON in each field of a small valid Tekken file (``config``, ``vocab`` ranks and bytes,
``special_tokens``) must give a clean error or a working tokenizer, within the harness's time and
memory budget. (A run of 400 cases by hand found no failure; this keeps it that way.)
"""

from __future__ import annotations

import atexit
import base64
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_engine.registry import load_tokenizer
from tests.fuzz_loaders import check_load, json_values

PATTERN = r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|\s+|[^\s]"
VALID: dict[str, Any] = {
    "config": {
        "pattern": PATTERN,
        "num_vocab_tokens": 260,
        "default_vocab_size": 260,
        "default_num_special_tokens": 3,
        "version": "v7",
    },
    "vocab": [
        *({"rank": i, "token_bytes": base64.b64encode(bytes([i])).decode(), "token_str": None} for i in range(256)),
        {"rank": 256, "token_bytes": base64.b64encode(b"ab").decode(), "token_str": "ab"},
    ],
    "special_tokens": [
        {"rank": 0, "token_str": "<unk>", "is_control": True},
        {"rank": 1, "token_str": "<s>", "is_control": True},
        {"rank": 2, "token_str": "</s>", "is_control": True},
    ],
}


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for i, child in enumerate(value[:2] + value[-1:]):
            found += _paths(child, (*prefix, i if i < 2 else len(value) - 1))
    return found


FIELDS = _paths(VALID)
SCRATCH = Path(tempfile.mkdtemp(prefix="bpe-explorer-fuzz-tekken-"))
atexit.register(shutil.rmtree, SCRATCH, True)


def test_the_valid_file_loads() -> None:
    path = SCRATCH / "valid" / "tekken.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(VALID), encoding="utf-8")
    tokenizer = check_load(lambda: load_tokenizer(path))
    assert tokenizer is not None and tokenizer.decode(tokenizer.encode("ab cd")) == "ab cd"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=st.sampled_from(FIELDS), value=json_values(6))
def test_any_field_with_any_json_value(field: tuple[Any, ...], value: Any) -> None:
    doc = json.loads(json.dumps(VALID))
    node = doc
    for key in field[:-1]:
        node = node[key]
    node[field[-1]] = value
    folder = Path(tempfile.mkdtemp(dir=SCRATCH))
    path = folder / "tekken.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    try:
        check_load(lambda: load_tokenizer(path))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
