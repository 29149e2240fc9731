"""Typed reading of a tokenizer.json: every wrong type or value is one line naming file and JSON path.

Files come from anywhere, so the loader never indexes raw JSON: it asks a :class:`Node` for a
string, a boolean, an integer in range, a list or an object, and a node that holds something else
raises :class:`~bpe_engine.errors.TokenizerFileError` like
``tokenizer.json: pre_tokenizer.pretokenizers[1].pattern.Regex: expected a string, got the number 5``.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

from ..errors import TokenizerFileError
from ..token_ids import MAX_TOKEN_ID, id_problem

_MISSING: Any = object()
MAX_NESTING = 32
"""Lists inside lists a tokenizer.json may nest (``Sequence`` in ``Sequence``...): Hugging Face's
own files nest one or two; a file nesting 350 deep was a RecursionError of 2,977 lines (and, for
pre-tokenizers, a misleading "invalid regex")."""


def describe(value: Any) -> str:
    """A JSON value in words, for messages (``the number 5``, ``a list``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the string {shown!r}"
    if isinstance(value, list):
        return "a list"
    return "an object"


class Node:
    """A JSON value with the path that leads to it.

    Its readers are named after JSON's types (``str``, ``bool``, ``int``), so inside the class body
    those names are methods: annotations after them spell the types ``builtins.str`` and so on.
    """

    __slots__ = ("file", "path", "value")

    def __init__(self, file: str | Path, path: str, value: Any) -> None:
        self.file = file
        self.path = path
        self.value = value

    def fail(self, message: str) -> NoReturn:
        raise TokenizerFileError(self.file, f"{self.path or 'the top level'}: {message}")

    def child(self, key: str | int) -> Node:
        path = f"{self.path}[{key}]" if isinstance(key, int) else (f"{self.path}.{key}" if self.path else key)
        if isinstance(key, int):
            value = self.value[key]
        else:
            value = self.value.get(key, _MISSING) if isinstance(self.value, dict) else _MISSING
        return Node(self.file, path, value)

    @property
    def where(self) -> str:
        """``file: path``, as errors name a node (for a stage that checks its input when it runs)."""
        return f"{self.file}: {self.path or 'the top level'}"

    @property
    def missing(self) -> bool:
        return self.value is _MISSING

    # -- typed access ----------------------------------------------------------------------------
    def expect_object(self) -> Node:
        if not isinstance(self.value, dict):
            self.fail(f"expected an object, got {describe(self.value)}" if not self.missing else "is missing")
        return self

    def type_name(self) -> str:
        """The ``type`` of a component object."""
        self.expect_object()
        kind = self.child("type")
        if kind.missing:
            self.fail("has no \"type\"; write the component's type (e.g. \"type\": \"NFC\")")
        return kind.as_str()

    def as_str(self) -> str:
        if not isinstance(self.value, str):
            self.fail(f"expected a string, got {describe(self.value)}" if not self.missing else "is missing")
        return self.value

    def _field(self, key: str, default: Any, nullable: bool) -> tuple[Node, bool]:
        """The node under ``key`` and whether it is absent/null and so answered by the default."""
        node = self.child(key)
        return node, (node.missing and default is not _MISSING) or (nullable and node.value is None)

    def str(self, key: str, default: Any = _MISSING, *, nullable: bool = False) -> Any:
        node, absent = self._field(key, default, nullable)
        return (default if node.missing else None) if absent else node.as_str()

    def char(self, key: builtins.str, default: Any = _MISSING) -> builtins.str:
        value = self.str(key, default)
        if len(value) != 1:
            self.child(key).fail(f"expected a single character, got {describe(value)}")
        return value

    def bool(self, key: builtins.str, default: Any = _MISSING, *, nullable: builtins.bool = False) -> Any:
        node, absent = self._field(key, default, nullable)
        if absent:
            return default if node.missing else None
        if not isinstance(node.value, bool):
            node.fail(f"expected true or false, got {describe(node.value)}" if not node.missing else "is missing")
        return node.value

    def int(
        self, key: builtins.str, default: Any = _MISSING, *,
        minimum: builtins.int = 0, maximum: builtins.int = MAX_TOKEN_ID, nullable: builtins.bool = False,
    ) -> Any:
        node, absent = self._field(key, default, nullable)
        return (default if node.missing else None) if absent else node.as_int(minimum=minimum, maximum=maximum)

    def as_int(self, *, minimum: builtins.int = 0, maximum: builtins.int = MAX_TOKEN_ID) -> builtins.int:
        value = self.value
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(f"expected an integer, got {describe(self.value)}" if not self.missing else "is missing")
        if not minimum <= value <= maximum:
            self.fail(f"{value} is out of range; expected {minimum}..{maximum:,}")
        return value

    def token_id(self, key: builtins.str, default: Any = _MISSING) -> Any:
        node, absent = self._field(key, default, False)
        return default if absent else node.as_token_id()

    def as_token_id(self) -> builtins.int:
        """A token id by the project's id rules (:mod:`bpe_engine.token_ids`)."""
        if self.missing:
            self.fail("is missing")
        problem = id_problem(self.value)
        if problem is not None:
            fix = "ids run from 0 up" if problem == "is negative" else "is the file damaged?"
            self.fail(f"{describe(self.value)} {problem}; {fix}")
        return self.value

    def number(self, key: builtins.str, default: Any = _MISSING, *, nullable: builtins.bool = False) -> Any:
        node, absent = self._field(key, default, nullable)
        if absent:
            return default if node.missing else None
        if not isinstance(node.value, (int, float)) or isinstance(node.value, bool):
            node.fail(f"expected a number, got {describe(node.value)}" if not node.missing else "is missing")
        return float(node.value)

    def items(self, key: builtins.str, *, nullable: builtins.bool = False) -> list[Node]:
        node = self.child(key)
        if nullable and (node.missing or node.value is None):
            return []
        return node.as_list()

    def nested(self, key: builtins.str) -> list[Node]:
        """The list under ``key`` of a component that holds components (a ``Sequence``), at most
        :data:`MAX_NESTING` lists deep."""
        depth = self.path.count("[") + 1
        if depth > MAX_NESTING:
            head, _, _ = self.path.partition("]")
            tail = self.path.rsplit(".", 1)[-1]
            raise TokenizerFileError(
                self.file,
                f"{head}]…{tail}.{key}: components nested {depth} deep; bpe-explorer reads at most {MAX_NESTING} "
                "(Hugging Face's files nest one or two Sequences)",
            )
        return self.items(key)

    def as_list(self) -> list[Node]:
        if not isinstance(self.value, list):
            self.fail(f"expected a list, got {describe(self.value)}" if not self.missing else "is missing")
        return [self.child(i) for i in range(len(self.value))]

    def obj(self, key: builtins.str) -> Node | None:
        """The object under ``key``, or None for a missing key or ``null``."""
        node = self.child(key)
        if node.missing or node.value is None:
            return None
        return node.expect_object()

    def entries(self) -> Iterator[tuple[builtins.str, Node]]:
        """``(key, node)`` of an object."""
        self.expect_object()
        for key in self.value:
            yield key, self.child(key)
