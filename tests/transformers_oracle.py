"""``transformers`` as an oracle, run in its own virtual environment.

``transformers`` cannot share the test environment: every release from 5.4 requires
``regex>=2025.10.22`` (we pin ``regex<2025.10``, whose Unicode tables agree with tiktoken 0.14's) and
every release before needs ``tokenizers<=0.23.0`` (the suite's oracle is 0.23.3, whose added-token
rules the engine follows); it checks both versions when it is imported. So it lives in
``.venv-transformers`` beside the repository (``.ci/run`` makes it; :data:`SETUP` is the command),
or wherever ``BPE_EXPLORER_TRANSFORMERS_PYTHON`` points, and a test hands it a saved folder and texts
in a child process and reads back what ``AutoTokenizer`` made of them. It installs no torch: the
fast tokenizer needs none. Missing, it skips with :data:`SETUP` -- and fails under CI
(:func:`tests.oracles.under_ci`), where a skipped parity claim would be an unchecked one.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.oracles import under_ci

ROOT = Path(__file__).resolve().parents[1]
VERSION = "5.24.0"
SETUP = f"python3 -m venv .venv-transformers && .venv-transformers/bin/pip install -q transformers=={VERSION}"

_SCRIPT = r"""
import json, sys, transformers
from transformers import AutoTokenizer
assert transformers.__version__ == sys.argv[1], transformers.__version__
job = json.load(sys.stdin)
out = {}
for folder in job["folders"]:
    tok = AutoTokenizer.from_pretrained(folder)
    batch = tok(job["texts"], padding=True)
    out[folder] = {
        "class": type(tok).__name__,
        "special_tokens_map": tok.special_tokens_map,
        "pad_token_id": tok.pad_token_id,
        "ids": [tok(t)["input_ids"] for t in job["texts"]],
        "plain": [tok(t, add_special_tokens=False)["input_ids"] for t in job["texts"]],
        "batch": batch["input_ids"],
        "mask": batch["attention_mask"],
        "decoded": [tok.decode(tok(t, add_special_tokens=False)["input_ids"]) for t in job["texts"]],
    }
json.dump(out, sys.stdout)
"""


def transformers_python() -> Path:
    """The interpreter of the ``transformers`` environment; skips (fails under CI) when there is none."""
    path = Path(os.environ.get("BPE_EXPLORER_TRANSFORMERS_PYTHON") or ROOT / ".venv-transformers" / "bin" / "python")
    if not path.is_file():
        reason = f"no transformers environment at {path}; make it with: {SETUP}"
        if under_ci():
            pytest.fail(f"CI run: {reason}", pytrace=False)
        pytest.skip(reason)
    return path


def auto_tokenizer_results(folders: list[Path], texts: list[str]) -> dict[str, dict[str, Any]]:
    """For each folder, what ``AutoTokenizer.from_pretrained(folder)`` gives ``texts`` (keys of
    ``_SCRIPT``'s record), all in one child process (importing transformers takes seconds)."""
    job = json.dumps({"folders": [str(f) for f in folders], "texts": texts})
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TRANSFORMERS_VERBOSITY": "error"}
    done = subprocess.run(
        [str(transformers_python()), "-c", _SCRIPT, VERSION], input=job, capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, dict[str, Any]] = json.loads(done.stdout)
    return result
