"""SentencePiece models: our pure-Python encoder against the ``sentencepiece`` package, same run.

For ``mistral-v1`` (SentencePiece BPE) and ``sp-unigram-en`` (Unigram, nfkc) by default, on
``en_10mb.txt`` and ``ko_all.txt`` (``../shared/corpora/bench``) or the files given: each file is
encoded line by line (SentencePiece encodes sentences; one call over 10 MB would make its float
path scores grow until rounding decides -- we reproduce that too, but it is not the use case).

* ours: a freshly loaded tokenizer (empty word memo), ``encode(line)`` for every line;
* sentencepiece: ``SentencePieceProcessor.encode(lines, num_threads=1)`` -- its batch call, one thread.

Both are timed as CPU time, interleaved, best of ``--repeat`` rounds; ids are checked equal line by
line (a mismatch is reported, never hidden). Load time: our ``load_model`` and sentencepiece's
``Load``, in-process, best of ``--repeat``; the fresh-interpreter load of every built-in is in
``bench_models.py``. The load average is printed: compare ratios, not seconds.

    python benchmarks/bench_sentencepiece.py [--repeat 3] [--max-bytes N] [--models mistral-v1,sp-unigram-en] [FILE ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sentencepiece as spm  # noqa: E402
from _corpora import default_corpus  # noqa: E402

from bpe_engine.catalog import FileState, builtin, file_state, model_path  # noqa: E402
from bpe_engine.sentencepiece import load_model  # noqa: E402


def best_cpu(fn, repeat: int) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = fn()
        best = min(best, time.process_time() - start)
    return best, result


def bench_model(name: str, files: list[Path], repeat: int, max_bytes: int) -> None:
    model = builtin(name)
    if model is None or file_state(model) is not FileState.PRESENT:
        print(f"{name}: not fetched (bpe-explorer models fetch {name})")
        return
    path = str(model_path(model))
    ours_load, _ = best_cpu(lambda: load_model(path), repeat)
    ref_load, _ = best_cpu(lambda: spm.SentencePieceProcessor(model_file=path), repeat)
    print(f"{name}: load ours {ours_load:.3f}s, sentencepiece {ref_load:.3f}s (goal <= 1 s)")
    ref = spm.SentencePieceProcessor(model_file=path)
    for file in files:
        data = file.read_bytes()[:max_bytes].decode("utf-8", "ignore")
        lines = data.splitlines()
        ours_best = ref_best = float("inf")
        ours_ids: list[list[int]] = []
        ref_ids: list[list[int]] = []
        for _ in range(repeat):  # interleaved: a burst of load on the machine hits both alike
            tok = load_model(path)  # a cold memo every round
            start = time.process_time()
            ours_ids = [tok.encode(line) for line in lines]
            ours_best = min(ours_best, time.process_time() - start)
            start = time.process_time()
            ref_ids = ref.encode(lines, num_threads=1)
            ref_best = min(ref_best, time.process_time() - start)
        bad = sum(a != b for a, b in zip(ours_ids, ref_ids, strict=True))
        mb = len(data.encode("utf-8")) / 1e6
        print(
            f"  {file.name:<14} {mb:6.2f} MB {len(lines):>8,} lines  ours {ours_best:7.2f}s ({mb / ours_best:5.2f} MB/s)"
            f"  sentencepiece {ref_best:6.2f}s  ratio {ours_best / ref_best:5.2f}x  id mismatches: {bad}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-bytes", type=int, default=1 << 40)
    parser.add_argument("--models", default="mistral-v1,sp-unigram-en")
    args = parser.parse_args()
    files = args.files or [default_corpus(), default_corpus("corpora/bench/ko_all.txt")]
    print(f"load average {os.getloadavg()[0]:.2f} (goal: ours <= 3x sentencepiece)")
    for name in args.models.split(","):
        bench_model(name.strip(), files, args.repeat, args.max_bytes)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
