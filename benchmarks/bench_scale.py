"""Training on 10 MB / 100 MB / 1 GB: our CLI vs Hugging Face ``Tokenizer.train(files)``, time and memory.

The corpora are built once from ``../shared/corpora/bench`` (en_10mb and ko_all) into a cache
directory outside the repository, and reused: lines drawn at random from both sources (so the
text is not one file repeated) in which about one word in ten is replaced by a made-up word whose
number follows a Zipf law -- so the number of distinct words keeps growing with the corpus, as in
real text (Heaps' law, here ~ size^0.75), instead of stopping at the sources' vocabulary.

Each side runs in a fresh process on the same file, lines as documents (HF's fastest path):
ours is the installed command ``bpe-explorer train --lines FILE`` (``--max-token-length 0``, as HF has
no limit), exactly what a user runs; HF is
``Tokenizer.train([FILE])`` with a byte-level BPE trainer, the GPT-2 regex, the full byte alphabet
and 2 threads. Peak memory is the highest total RSS of the process and its children, sampled every
20 ms (our counting workers are forked, so pages they share with the parent are counted twice: an
overstatement for us). Where HF finishes, the merge
lists must be identical (checked).

    python benchmarks/bench_scale.py [--sizes 10M 100M 1G] [--vocab 8000] [--cache DIR] [--hf-max 1G]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _corpora import default_corpus  # noqa: E402  (benchmarks/ is on sys.path)

REPO = Path(__file__).resolve().parent.parent
GENERATOR_VERSION = 1
SYLLABLES_EN = "ka ri to ne mu sa lo vi de po gu ba ti ze fo ha ju ce ly wa xo qu in or el".split()
SYLLABLES_KO = [chr(0xAC00 + i * 397 % 11172) for i in range(40)]


# -- corpora ------------------------------------------------------------------------------------
def parse_size(text: str) -> int:
    units = {"K": 10**3, "M": 10**6, "G": 10**9}
    return int(float(text[:-1]) * units[text[-1].upper()]) if text[-1].upper() in units else int(text)


def made_up_word(k: int, syllables: list[str]) -> str:
    """The k-th made-up word: k written in base len(syllables), one syllable per digit."""
    out = []
    k += len(syllables)  # at least two syllables
    while k:
        k, digit = divmod(k, len(syllables))
        out.append(syllables[digit])
    return "".join(out)


def build_corpus(path: Path, size: int, sources: list[Path], seed: int = 2026) -> None:
    """Write ``size`` bytes of recombined, mutated lines (deterministic for a given seed)."""
    pools = [[line for line in src.read_text(encoding="utf-8").split("\n") if line.strip()] for src in sources]
    rng = random.Random(seed)
    tmp = path.with_suffix(".part")
    written = 0
    with open(tmp, "w", encoding="utf-8", newline="\n") as out:
        batch: list[str] = []
        while written < size:
            korean = rng.random() < 0.2
            line = rng.choice(pools[1] if korean else pools[0])
            words = line.split(" ")
            for _ in range(max(1, len(words) // 10) if rng.random() < 0.9 else 0):
                k = int(rng.paretovariate(0.75)) * 7 + rng.randrange(7)  # Zipf-like ranks: few often, many once
                words[rng.randrange(len(words))] = made_up_word(k, SYLLABLES_KO if korean else SYLLABLES_EN)
            text = " ".join(words) + "\n"
            batch.append(text)
            written += len(text.encode("utf-8"))
            if len(batch) >= 10_000:
                out.write("".join(batch))
                batch.clear()
        out.write("".join(batch))
    tmp.replace(path)


def corpus_for(size: int, cache: Path, sources: list[Path]) -> Path:
    path = cache / f"scale-v{GENERATOR_VERSION}-{size}.txt"
    if not path.exists():
        print(f"building {path} ({size / 1e6:,.0f} MB, once) ...", flush=True)
        start = time.perf_counter()
        build_corpus(path, size, sources)
        print(f"  built in {time.perf_counter() - start:.0f} s", flush=True)
    return path


# -- runs ---------------------------------------------------------------------------------------
HF_CHILD = """
import json, sys, time
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
path, vocab, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
start = time.perf_counter()
tok = Tokenizer(models.BPE())
tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
trainer = trainers.BpeTrainer(vocab_size=vocab, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
tok.train([path], trainer)
tok.save(out)
print(json.dumps({"wall": time.perf_counter() - start}))
"""


def tree_rss(pid: int) -> int:
    """Total RSS in bytes of ``pid`` and all its descendants (Linux /proc)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/statm") as handle:
                total += int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            with open(f"/proc/{p}/task/{p}/children") as handle:
                todo.extend(int(c) for c in handle.read().split())
        except (OSError, ValueError):
            continue
    return total


def measure(cmd: list[str], env: dict[str, str]) -> dict:
    """Run ``cmd``; its wall time and the sampled peak RSS of its process tree."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.02)
    wall = time.perf_counter() - start
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed ({proc.returncode}):\n{err[-2000:]}")
    return {"wall": wall, "peak": peak, "out": out}


def merges_of(tokenizer_json: Path) -> list[list[str]]:
    merges = json.loads(tokenizer_json.read_text(encoding="utf-8"))["model"]["merges"]
    return [m if isinstance(m, list) else m.split(" ") for m in merges]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", nargs="+", default=["10M", "100M", "1G"])
    parser.add_argument("--vocab", type=int, default=8000)
    parser.add_argument("--cache", type=Path, default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "bpe-explorer-bench")
    parser.add_argument("--hf-max", default="1G", help="run HF only up to this size")
    parser.add_argument("--cli", default=str(Path(sys.executable).parent / "bpe-explorer"), help="our command")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    sources = [default_corpus("corpora/bench/en_10mb.txt"), default_corpus("corpora/bench/ko_all.txt")]
    env = {**os.environ, "RAYON_NUM_THREADS": "2", "TOKENIZERS_PARALLELISM": "true"}
    print(f"vocab {args.vocab}, lines as documents, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    for label in args.sizes:
        size = parse_size(label)
        corpus = corpus_for(size, args.cache, sources)
        with tempfile.TemporaryDirectory() as tmp:
            hf = None
            if size <= parse_size(args.hf_max):
                hf = measure([sys.executable, "-c", HF_CHILD, str(corpus), str(args.vocab), f"{tmp}/hf.json"], env)
            ours = measure([args.cli, "train", "--lines", str(corpus), "--vocab-size", str(args.vocab), "--pre-tokenizer",
                            "gpt2", "--max-token-length", "0", "-o", f"{tmp}/ours"], env)  # HF: no length limit
            same = hf is not None and merges_of(Path(tmp) / "hf.json") == merges_of(Path(tmp) / "ours" / "tokenizer.json")
        line = f"{label:>5}: ours {ours['wall']:7.1f} s, peak {ours['peak'] / 2**20:6.0f} MiB (tree)"
        if hf is not None:
            line += (f" | HF {hf['wall']:7.1f} s, peak {hf['peak'] / 2**20:6.0f} MiB | ratio time "
                     f"{ours['wall'] / hf['wall']:.2f}x, memory {ours['peak'] / hf['peak']:.2f}x | merges "
                     f"{'identical' if same else 'DIFFERENT'}")
        print(line + f" | load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
