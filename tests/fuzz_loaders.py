"""A reusable fuzz harness for tokenizer loaders (a shared test helper).

Every loader must answer random bytes and random JSON shapes with either a clean
:class:`~bpe_engine.errors.BpeEngineError` or a tokenizer that works -- never a traceback, a hang or
a gigabyte. A loader owner adds their format in a few lines::

    from tests.fuzz_loaders import check_load, json_documents, mutated_json

    @given(doc=mutated_json(VALID_TOKENIZER_JSON))
    def test_my_loader(tmp_path_factory, doc):
        path = tmp_path_factory.mktemp("f") / "tokenizer.json"
        path.write_text(doc, encoding="utf-8")
        check_load(lambda: load_tokenizer(path))

:func:`check_load` runs the load under a time budget (SIGALRM: a hang becomes a failure naming
the budget, not a stuck CI job) and a memory budget (tracemalloc peak), then exercises a loaded
tokenizer: ``encode_detailed`` on a few texts must not raise (unknown symbols are unknown pieces),
and ``decode`` of the ids it gave must not raise. Budgets are generous ceilings for small inputs,
not timings: a linear loader is far below them, a quadratic or id-sized allocation far above.
"""

from __future__ import annotations

import json
import signal
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import strategies as st

from bpe_engine.errors import BpeEngineError
from bpe_engine.types import UNKNOWN_ID

TIME_BUDGET_S = 20.0
MEMORY_BUDGET_BYTES = 256 * 1024 * 1024
PROBE_TEXTS = ("", "hello world", "한국어 text\n", "a\x1b[31m\u202e<|endoftext|>", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")


class BudgetExceeded(AssertionError):
    """The loader ran past its time budget (a hang or a super-linear loop)."""


@contextmanager
def time_budget(seconds: float = TIME_BUDGET_S) -> Iterator[None]:
    """Raise :class:`BudgetExceeded` in the main thread when the block runs past ``seconds``."""

    def expired(signum: int, frame: Any) -> None:
        raise BudgetExceeded(f"still running after {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_load(
    load: Callable[[], Any], *, seconds: float = TIME_BUDGET_S, memory: int = MEMORY_BUDGET_BYTES
) -> Any | None:
    """Run ``load()``: a :class:`BpeEngineError` is a fine answer (returns None, after checking
    it is one line); anything else it returns must be a working tokenizer (returned). Any other
    exception, a blown time budget or a tracemalloc peak above ``memory`` fails the test."""
    tracemalloc.start()
    try:
        with time_budget(seconds):
            try:
                tokenizer = load()
            except BpeEngineError as exc:
                message = str(exc)
                assert message and "\n" not in message, f"error message is not one line: {message!r}"
                return None
            exercise(tokenizer)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= memory, f"peak memory {peak:,} bytes above the budget of {memory:,}"
    return tokenizer


def exercise(tokenizer: Any) -> None:
    """A loaded tokenizer must encode anything (unknown pieces, not errors, unless the reference
    library refuses the text too) and decode its ids."""
    assert isinstance(tokenizer.name, str) and isinstance(tokenizer.vocab_size, int)
    for text in PROBE_TEXTS:
        try:
            encoding = tokenizer.encode_detailed(text)
        except BpeEngineError as exc:
            # The one error kept on purpose: the file names an unk token its vocabulary lacks and
            # this text needs it, where the reference library fails too (ids stay its ids).
            message = str(exc)
            assert "fails on this text too" in message and "\n" not in message, message
            continue
        assert len(encoding.ids) == len(encoding.tokens) == len(encoding.byte_spans) == len(encoding.unknown)
        ids = [i for i in encoding.ids if i != UNKNOWN_ID]
        assert isinstance(tokenizer.decode(ids), str)
        for i in ids[:8]:
            assert isinstance(tokenizer.token_bytes(i), bytes)


# -- strategies -------------------------------------------------------------------------------------
def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Any JSON value, with the integers that break id tables (negative, huge) made likely."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**63), max_value=2**63),
        st.sampled_from([-1, -5, 0, 1, 255, 256, 10**8, 10**12, 2**31]),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=8),
        st.sampled_from(["", "gpt2", "Ġ", "<|endoftext|>", "a", "ab", "\x1b[2J", "BPE", "ByteLevel"]),
    )
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4), st.dictionaries(st.text(max_size=6), children, max_size=4)
        ),
        max_leaves=max_leaves,
    )


def json_documents() -> st.SearchStrategy[str]:
    """Random JSON text of any shape."""
    return json_values().map(lambda v: json.dumps(v, ensure_ascii=False))


@st.composite
def mutated_json(draw: st.DrawFn, document: Any, max_mutations: int = 3) -> str:
    """``document`` (a valid file's parsed JSON) with a few nodes replaced by random JSON values,
    deleted, or retyped (a number as a string, an object as a list): wrong shapes in the places a
    loader reads, which a purely random document rarely reaches."""
    doc = json.loads(json.dumps(document))
    for _ in range(draw(st.integers(min_value=1, max_value=max_mutations))):
        paths = list(_paths(doc))
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = _locate(doc, path)
        if parent is None:
            doc = draw(json_values())
            continue
        action = draw(st.sampled_from(["replace", "delete", "stringify", "wrap"]))
        if action == "delete" and isinstance(parent, dict):
            del parent[key]
        elif action == "stringify":
            parent[key] = json.dumps(parent[key])
        elif action == "wrap":
            parent[key] = [parent[key]]
        else:
            parent[key] = draw(json_values(max_leaves=4))
    return json.dumps(doc, ensure_ascii=False)


def random_bytes(max_size: int = 512) -> st.SearchStrategy[bytes]:
    """Random bytes, sometimes mostly printable (so line-based parsers get past the first byte)."""
    return st.one_of(
        st.binary(max_size=max_size),
        st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=max_size).map(str.encode),
    )


def _paths(node: Any, prefix: tuple[Any, ...] = (), depth: int = 0) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if depth >= 4:
        return
    if isinstance(node, dict):
        for key in list(node)[:16]:
            yield from _paths(node[key], (*prefix, key), depth + 1)
    elif isinstance(node, list):
        for i in range(min(len(node), 4)):
            yield from _paths(node[i], (*prefix, i), depth + 1)


def _locate(doc: Any, path: tuple[Any, ...]) -> tuple[Any, Any]:
    if not path:
        return None, None
    node = doc
    for step in path[:-1]:
        node = node[step]
    return node, path[-1]


__all__ = [
    "BudgetExceeded",
    "MEMORY_BUDGET_BYTES",
    "TIME_BUDGET_S",
    "check_load",
    "exercise",
    "json_documents",
    "json_values",
    "mutated_json",
    "random_bytes",
    "time_budget",
]
