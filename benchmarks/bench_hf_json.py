"""tokenizer.json encode and load time against Hugging Face ``tokenizers``, in the same run.

For each file: HF's ``Tokenizer.encode(text).ids`` (Rust, one call on the whole text, as a user
would call it) against ``bpe_engine.hf``'s pure-Python ``encode`` of the same tokenizer.json,
rounds interleaved, best wall time of ``--repeat`` kept; ids must be identical (the mismatch count is
printed). Then load time of both (best of ``--repeat``).

    python benchmarks/bench_hf_json.py --tokenizer PATH/tokenizer.json [--repeat 3] [FILE ...]

Without ``--tokenizer`` the ``claude-legacy`` file from the built-in catalogue is used when it has
been fetched (``bpe-explorer models fetch claude-legacy``). Goals: encode <= 3x HF's time
on en_10mb and ko_all, load <= 1 s. The machine is shared: the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _corpora import default_corpus  # noqa: E402

from bpe_engine.hf import load_tokenizer_json  # noqa: E402


def _default_tokenizer() -> Path:
    from bpe_engine.catalog import FileState, builtin, fetch_command, file_state, model_path

    model = builtin("claude-legacy")
    assert model is not None
    if file_state(model) is not FileState.PRESENT:
        raise SystemExit(f"claude-legacy is not in the cache: run `{fetch_command('claude-legacy')}` or pass --tokenizer")
    return model_path(model)


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Best wall time of ``repeat`` calls, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def cpu(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """(wall, process CPU) seconds of one call, and its result: on a loaded machine the CPU time
    is the steadier figure (HF's encode of one text runs on one thread)."""
    wall, clock = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - clock, result


def mismatches(a: list[int], b: list[int]) -> int:
    return sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--tokenizer", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    from tokenizers import Tokenizer

    path = args.tokenizer or _default_tokenizer()
    files = args.files or [default_corpus("corpora/bench/en_10mb.txt"), default_corpus("corpora/bench/ko_all.txt")]
    print(f"tokenizer {path}  load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    hf_load = min(cpu(lambda: Tokenizer.from_file(str(path)))[:2] for _ in range(args.repeat))
    our_load = min(cpu(lambda: load_tokenizer_json(path))[:2] for _ in range(args.repeat))
    hf = Tokenizer.from_file(str(path))
    print(f"load: HF {hf_load[0]:.3f} s wall / {hf_load[1]:.3f} s CPU   ours {our_load[0]:.3f} s wall / {our_load[1]:.3f} s CPU")
    for file in files:
        text = file.read_text(encoding="utf-8")
        hf_runs, our_runs = [], []
        hf_ids: list[int] = []
        our_ids: list[int] = []
        for _ in range(args.repeat):  # interleaved, so both see the same machine load
            *times, hf_ids = cpu(lambda: hf.encode(text).ids)
            hf_runs.append(times)
            fresh = load_tokenizer_json(path)  # a cold piece cache, as a new process has
            *times, our_ids = cpu(lambda: fresh.encode(text, special_mode="special"))
            our_runs.append(times)
        (hw, hc), (ow, oc) = (min(r, key=lambda t: t[0]) for r in (hf_runs, our_runs))
        mb = len(text.encode("utf-8")) / 1e6
        print(
            f"{file.name}: {mb:.1f} MB  HF {hw:.2f} s wall / {hc:.2f} s CPU  ours {ow:.2f} s wall / {oc:.2f} s CPU "
            f"({mb / ow:.2f} MB/s)  ratio {ow / hw:.2f}x wall, {oc / hc:.2f}x CPU  tokens {len(hf_ids):,}  "
            f"id mismatches {mismatches(hf_ids, our_ids)}"
        )
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
