"""``pickybpe-bauwenst`` 1.3.1 run as the oracle of our PickyBPE, with what the tests change in it.

1.3.1's runs are not reproducible: it breaks ties by heap position, and it checks a merge's two
parts in the order of ``set(pair)`` (objects hashed by ``id()``). :class:`Ordered` gives it the total
order ours uses -- the heap compares ``(-count, left id, right id)`` -- and checks the left part,
then the right one, as the original ``pchizhov/picky_bpe`` does. Nothing else changes.

``fixed=True`` also mends the one bug that makes 1.3.1 stop (docs/training.md): its
``Token.remove()`` zeroes the token's frequency and word set *before* ``_remove_if_possible`` reads
them, so a removal rewrites no word. The patch lets ``remove()`` only mark the token absent, and
zeroes the two after the removal has used them -- 1.3.1's own statements, in the intended order.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.oracles import require

require("pickybpe")
from pickybpe.util.counters import MaxHeap  # noqa: E402
from pickybpe.vocabularisation import EventType, PickyBPETrainer, RawBPEStatistics  # noqa: E402

Event = tuple[str, str, Any]
"""``("merge", "left+right", new)`` or ``("split", token, parts)``, spelled as strings."""


class OrderedHeap(MaxHeap):
    """1.3.1's max-heap with ``(-count, left id, right id)`` as the value: one order, no heap-position ties."""

    def set(self, key: Any, value: float) -> None:
        self._minheap[key] = (-value, key[0].id, key[1].id)

    def get(self, key: Any) -> float:
        return -self._minheap[key][0]

    def pop(self, key: Any) -> float:
        return -self._minheap.pop(key)[0]

    def get_argmax(self) -> tuple[Any, float]:
        key, value = self._minheap.peekitem()
        return key, -value[0]


class Ordered(PickyBPETrainer):  # type: ignore[misc]
    """1.3.1 with the total order and left-then-right checks (module docstring); ``fixed`` mends removal."""

    fixed = False

    def _initialize_state(self) -> Any:
        state = super()._initialize_state()
        stats = RawBPEStatistics()
        stats._counts = OrderedHeap()
        state.pairs = stats
        return state

    def _merge_pair(self, pair: Any, state: Any) -> int:
        self._pair, self._waiting = pair, []
        return super()._merge_pair(pair, state)

    def _scrutinize_parent_after_merge(self, parent: Any, child: Any, pair_frequency: int, state: Any) -> None:
        # 1.3.1 calls this once per token of set(pair), in hash order; run them left, then right
        self._waiting.append(parent)
        if len(self._waiting) == len(set(self._pair)):
            for token in dict.fromkeys(self._pair):
                super()._scrutinize_parent_after_merge(token, child, pair_frequency, state)

    def _remove_if_possible(self, token: Any, merged_freq: int, state: Any) -> bool:
        if not self.fixed:
            return bool(super()._remove_if_possible(token, merged_freq, state))
        token.remove = lambda: setattr(token, "present", False)
        try:
            removed = bool(super()._remove_if_possible(token, merged_freq, state))
        finally:
            del token.remove
        if removed:
            token.freq, token.words = 0, set()
        return removed


class Fixed(Ordered):
    fixed = True


def run_reference(
    trainer: type[PickyBPETrainer], text: str, vocab_size: int, tmp_path: Path, tau: float = 0.9, dump: Path | None = None
) -> tuple[list[Event], dict[str, int] | None, str | None]:
    """1.3.1's events and final vocabulary (its ``id2int``, spelled); when it stops on an assertion,
    the events so far, no vocabulary and the assertion's message."""
    corpus = tmp_path / "picky-corpus.txt"
    corpus.write_text(text, encoding="utf-8")
    model = trainer(vocab_size=vocab_size, picky_threshold=tau)
    words = model._pretokens_to_objects(model._count_words_in_file(str(corpus)))
    kept: dict[str, Any] = {}
    start = model._initialize_state
    model._initialize_state = lambda: kept.setdefault("state", start())
    write = model._dump
    model._dump = lambda state, path: write(state, dump) if dump is not None else None
    try:
        model._fit_from_objects(words, tmp_path / "picky.json", 10**9)
    except (AssertionError, ZeroDivisionError) as error:  # the second: IoS of a merge that fused nothing
        return events_of_reference(kept["state"].events), None, f"{type(error).__name__}: {error}"
    except IndexError:  # no pair left: 1.3.1 peeks into its empty heap; the run is over all the same
        pass
    state = kept["state"]
    tokens = sorted({t.id: t for t in state.str2token.values()}.values(), key=lambda t: t.id)
    final = [t.str for t in tokens if t.present]
    return events_of_reference(state.events), {t: i for i, t in enumerate(final)}, None


def events_of_reference(events: Sequence[Any]) -> list[Event]:
    out: list[Event] = []
    for event in events:
        if event[0] == EventType.MERGE:
            out.append(("merge", f"{event[1][0].str}+{event[1][1].str}", event[2].str))
        else:
            out.append(("split", event[1].str, tuple(t.str for t in event[2])))
    return out


def events_of_ours(events: Sequence[Any]) -> list[Event]:
    out: list[Event] = []
    for event in events:
        if event.kind == "split":
            out.append(("split", event.token, event.parts))
        else:
            m = event.merge if event.kind == "restore" else event
            out.append(("merge", f"{m.left}+{m.right}", m.new))
    return out


_UNASSERTED = """
import json, sys
from pathlib import Path
from tests.picky_reference import Fixed, run_reference
text = Path(sys.argv[1]).read_text(encoding="utf-8")
dump = Path(sys.argv[5]) if len(sys.argv) > 5 else None
events, vocab, error = run_reference(Fixed, text, int(sys.argv[2]), Path(sys.argv[3]), float(sys.argv[4]), dump)
print(json.dumps({"events": events, "vocab": vocab, "error": error}))
"""


def run_fixed_unasserted(
    text: str, vocab_size: int, tmp_path: Path, tau: float = 0.9, dump: Path | None = None
) -> tuple[list[Event], dict[str, int] | None]:
    """The mended 1.3.1 under ``python -O``: its check that a removed pair's count equals the
    words' recount is off (its counts drift from a recount, see bpe_engine.training.picky), and the
    pair is removed either way -- as ours does. ``dump``: where 1.3.1 writes its model file."""
    import json
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    source = tmp_path / "unasserted-corpus.txt"
    source.write_text(text, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-O", "-c", _UNASSERTED, str(source), str(vocab_size), str(tmp_path), repr(tau),
         *([str(dump)] if dump is not None else [])],
        capture_output=True, text=True, check=True, cwd=root,
    )
    result = json.loads(out.stdout)
    assert result["error"] is None, result["error"]
    return [(kind, a, tuple(b) if isinstance(b, list) else b) for kind, a, b in result["events"]], result["vocab"]
