"""The reference libraries the parity tests hold us to, and what a missing one means.

Hugging Face ``tokenizers``, ``sentencepiece`` (and the ``dask`` extra) come with the test extra,
``pip install -e '.[test]'``. On a developer's machine without one, the tests that need it are
skipped, with the reason. Under CI (``CI`` set to anything but ``0``/``false``/``no``; ``.ci/run``
exports ``CI=true``) a missing one *fails* instead: a parity claim that was skipped was not checked,
and a green CI run must mean that every claim was.

Use :func:`require` wherever a test module or a test would have called ``pytest.importorskip``::

    tokenizers = require("tokenizers")

The built-in tokenizer files are the other thing parity tests need; the ``builtin_model_path``
fixture (``tests/conftest.py``) fails, with the fetch command, whenever one is absent.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

INSTALL = "pip install -e '.[test]'"


def under_ci() -> bool:
    """True when the environment says this is a CI run (``CI=true``, ``CI=1``, ...)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require(module: str) -> ModuleType:
    """``module`` imported; if it cannot be, skip locally and fail under CI, naming the fix."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        missing = error
    reason = f"{module} is not installed ({missing}); the test extra has it: {INSTALL}"
    if under_ci():
        pytest.fail(f"CI run: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)
