"""Train byte-level BPE on a corpus: our pure-Python trainer vs Hugging Face ``tokenizers`` (2 threads).

Each run happens in a fresh subprocess so that wall time and peak memory are the whole job's:
reading the file, pre-tokenizing and counting, and every merge. Both sides use the GPT-2 regex,
the full 256-byte alphabet, no prefix space, HF's tie-break and the same ``max_token_length``
(``--max-token-length``, default ours: 16; 0 for none, HF's default), so the merge lists must be
identical (checked). Ours is reported in two halves: counting (reading, pre-tokenizing, counting
words) and merges (building the words table and pair index, then the merge loop).

Inputs (``--input``): ``lines`` (default) -- HF's fastest path, ``Tokenizer.train([path])``, which
reads each line as a document in Rust; ours streams the file with ``count_files(lines=True)``, so
both see the same documents. ``whole`` -- ours takes the file as one document; HF gets it through
``train_from_iterator`` cut into ~100 kB parts at points where no GPT-2 piece is split (the same
pieces as the whole text), since HF parallelises over documents.

    python benchmarks/bench_train.py [CORPUS] [--vocab 8000 32000] [--input lines|whole] [--repeat 1]
                                     [--max-token-length 16]

Default corpus: ../shared/corpora/bench/en_10mb.txt (relative to the repository, or /work/shared).
Peak RSS is ``ru_maxrss`` of the child; ours also reports the largest counting worker's peak, which
overstates it: a forked worker's RSS includes the pages it still shares with its parent.
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

REPO = Path(__file__).resolve().parent.parent

from _corpora import default_corpus  # noqa: E402  (benchmarks/ is on sys.path)


# -- children ---------------------------------------------------------------------------------
def child_ours(path: str, vocab_size: int, out: str, lines: bool, max_len: int | None) -> dict:
    from bpe_engine.corpus import count_files
    from bpe_engine.pretokenizers import HF_GPT2
    from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining

    start = time.perf_counter()
    counts = count_files([path], HF_GPT2, byte_level=True, lines=lines, workers=2)  # streamed, as the CLI
    counted = time.perf_counter()
    config = BpeTrainerConfig(vocab_size=vocab_size, pre_tokenizer=HF_GPT2, tie_break="hf", max_token_length=max_len)
    training = BpeTraining(counts, config)
    for _ in training.steps():
        pass
    end = time.perf_counter()
    last = {pair: rank for rank, pair in enumerate(training.merges)}
    merges = [pair for rank, pair in enumerate(training.merges) if last[pair] == rank]
    Path(out).write_text(json.dumps(merges), encoding="utf-8")
    return {"wall": end - start, "count": counted - start, "merge": end - counted, "words": len(counts)}


def child_hf(path: str, vocab_size: int, out: str, lines: bool, max_len: int | None) -> dict:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    from bpe_engine.corpus.blocks import CutRule, cut_bytes

    start = time.perf_counter()
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
        max_token_length=max_len,
    )
    if lines:
        tok.train([path], trainer)
    else:
        with open(path, encoding="utf-8", newline="") as handle:  # keep \r\n as ours does
            text = handle.read()
        parts = cut_bytes(text.encode("utf-8"), CutRule(lines=False, spaces=True), 100_000)
        tok.train_from_iterator((p.decode("utf-8") for p in parts), trainer)  # a generator: HF streams the parts
    end = time.perf_counter()
    merges = json.loads(tok.to_str())["model"]["merges"]
    merges = [list(m) if isinstance(m, list) else m.split(" ") for m in merges]
    Path(out).write_text(json.dumps(merges), encoding="utf-8")
    return {"wall": end - start}


def run_child(side: str, path: Path, vocab_size: int, out: Path, mode: str, max_len: int) -> dict:
    env = {**os.environ, "RAYON_NUM_THREADS": "2", "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, __file__, "--child", side, str(path), "--vocab", str(vocab_size), "--out", str(out),
           "--input", mode, "--max-token-length", str(max_len)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"{side} child failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path)
    parser.add_argument("--vocab", type=int, nargs="+", default=[8000, 32000])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--input", choices=["lines", "whole"], default="lines")
    parser.add_argument("--max-token-length", type=int, default=16, help="both sides; 0 = no limit")
    parser.add_argument("--child", choices=["ours", "hf"], help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        import resource

        child = child_ours if args.child == "ours" else child_hf
        result = child(str(args.corpus), args.vocab[0], args.out, args.input == "lines", args.max_token_length or None)
        result["peak_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        result["workers_peak_kib"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(json.dumps(result))
        return
    corpus = args.corpus or default_corpus()
    size = corpus.stat().st_size
    print(f"corpus {corpus} ({size / 1e6:.1f} MB), input {args.input}, max_token_length "
          f"{args.max_token_length or 'none'}, {os.cpu_count()} cores, HF with RAYON_NUM_THREADS=2, "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        for vocab_size in args.vocab:
            for rep in range(args.repeat):
                hf = run_child("hf", corpus, vocab_size, Path(tmp) / "hf.json", args.input, args.max_token_length)
                ours = run_child("ours", corpus, vocab_size, Path(tmp) / "ours.json", args.input, args.max_token_length)
                same = json.loads((Path(tmp) / "hf.json").read_text()) == json.loads((Path(tmp) / "ours.json").read_text())
                print(
                    f"vocab {vocab_size:>6} run {rep + 1}: HF {hf['wall']:.2f} s, {hf['peak_kib'] / 1024:.0f} MiB | "
                    f"ours {ours['wall']:.2f} s (count {ours['count']:.2f} s + merges {ours['merge']:.2f} s), "
                    f"{ours['peak_kib'] / 1024:.0f} MiB (largest worker {ours['workers_peak_kib'] / 1024:.0f} MiB) | "
                    f"ratio wall {ours['wall'] / hf['wall']:.2f}x, memory {ours['peak_kib'] / hf['peak_kib']:.2f}x | "
                    f"merges {'identical' if same else 'DIFFERENT'}"
                )


if __name__ == "__main__":
    main()
