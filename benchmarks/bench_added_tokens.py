"""A tokenizer.json with many added tokens: loading and encoding one line, against HF `tokenizers`.

Each row writes a byte-level BPE ``tokenizer.json`` (trained by HF on the sample corpus) with N
added tokens ``<t0> ... <tN-1>`` (every third special, every other normalized), then times, as
whole processes the way a user runs them, ``bpe-explorer encode -t FILE --special-mode special --ids TEXT`` (HF's default: special
tokens in the text are special tokens) and a
Python process that loads the file with ``tokenizers.Tokenizer.from_file`` and encodes TEXT; the
ids must be equal. The goal: loading linear in N and at most 3x HF's time (it was 180 s and
3.5 GB at a million, when added tokens were one regex alternation).

    python benchmarks/bench_added_tokens.py [--sizes 10000,100000,1000000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TEXT = "hello <t5> world <t999> again"
HF_SCRIPT = (
    "import sys; from tokenizers import Tokenizer; "
    "t = Tokenizer.from_file(sys.argv[1]); print(' '.join(map(str, t.encode(sys.argv[2]).ids)))"
)


def base_tokenizer(directory: Path) -> dict:  # type: ignore[type-arg]
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    corpus = ROOT / "bpe_engine" / "data" / "sample_corpus.txt"
    tok.train([str(corpus)], trainers.BpeTrainer(vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
    path = directory / "base.json"
    tok.save(str(path))
    return json.loads(path.read_text())


def with_added(base: dict, n: int, path: Path) -> None:  # type: ignore[type-arg]
    first = len(base["model"]["vocab"])
    data = dict(base)
    data["added_tokens"] = [
        {"id": first + i, "content": f"<t{i}>", "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": i % 2 == 1, "special": i % 3 == 0}
        for i in range(n)
    ]
    path.write_text(json.dumps(data))


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""As a user's install runs: its modules' bytecode cached (a session may turn that off)."""


def timed(argv: list[str]) -> tuple[float, str]:
    """Wall seconds of the whole process, and the ids it printed."""
    start = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, check=True, cwd=ROOT, env=ENV).stdout.split()
    return time.perf_counter() - start, " ".join(out)


def in_process(path: Path) -> tuple[float, float]:
    """Seconds to load the file and encode TEXT inside this process: ours, then HF's."""
    from tokenizers import Tokenizer

    from bpe_engine.registry import load_tokenizer

    start = time.perf_counter()
    load_tokenizer(str(path)).encode(TEXT, special_mode="special")
    ours = time.perf_counter() - start
    start = time.perf_counter()
    Tokenizer.from_file(str(path)).encode(TEXT)
    return ours, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="comma-separated numbers of added tokens")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        base = base_tokenizer(directory)
        print(f"encode --ids {TEXT!r}; whole processes, wall seconds; 'x10' = time / time at a tenth the size")
        print(f"{'added':>10} {'file MB':>8} {'ours s':>8} {'x10':>5} {'HF s':>7} {'x10':>5} {'ours/HF':>8}")
        prev: tuple[float, float] | None = None
        warm = directory / "warm.json"
        with_added(base, 10, warm)
        timed([sys.executable, "-m", "bpe_cli.main", "encode", "-t", str(warm), "--ids", TEXT])  # bytecode written
        for n in sizes:
            path = directory / f"added_{n}.json"
            with_added(base, n, path)
            ours, ours_ids = timed([sys.executable, "-m", "bpe_cli.main", "encode", "-t", str(path), "--special-mode", "special", "--ids", TEXT])
            theirs, hf_ids = timed([sys.executable, "-c", HF_SCRIPT, str(path), TEXT])
            assert ours_ids == hf_ids, (n, ours_ids, hf_ids)
            grow = (f"{ours / prev[0]:5.1f}", f"{theirs / prev[1]:5.1f}") if prev else ("    -", "    -")
            size = path.stat().st_size / 1e6
            print(f"{n:>10,} {size:8.1f} {ours:8.2f} {grow[0]} {theirs:7.2f} {grow[1]} {ours / theirs:8.2f}")
            in_ours, in_theirs = in_process(path)
            print(f"{'':>10} {'':>8} {in_ours:8.2f} {'':>5} {in_theirs:7.2f} {'':>5} {in_ours / in_theirs:8.2f}  (in-process: load + encode)")
            prev = (ours, theirs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
