"""A package's names imported on first use (PEP 562), for the trainer packages.

Why: looking a trainer up (:mod:`bpe_engine.training.registry`) imports its package's ``spec.py``,
which imports the package itself; with eager ``__init__`` imports that pulled in the whole trainer
(and numpy for Unigram). Each trainer package lists its public names and the module of each.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_getattr(package: str, exports: Mapping[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package``: ``exports`` maps a name to its submodule; a name
    is imported when first asked for, then kept in ``namespace`` (the package's globals)."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value
        return value

    return __getattr__


__all__ = ["lazy_getattr"]
