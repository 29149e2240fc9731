"""The vocabulary audit and the metrics, timed against a plain peer measured in the same run.

* **audit**: ``audit_vocabulary`` over every id of each tokenizer, against the bare Magikarp loop
  written with tiktoken directly (decode each rank alone, encode it again) on the same ranks -- what
  our categories, specials, progress and cancel checks cost on top;
* **metrics**: ``measure_text`` (slices, detailed encodings, word spans, the efficiencies) on a
  prefix of a corpus, against tiktoken's ``encode_ordinary`` of the same text plus
  ``tokenization-scorer`` scoring those ids (its Shannon and Rényi) -- the same numbers, computed
  by the peer's own packages; the efficiencies are checked equal.

    python benchmarks/bench_audit_metrics.py [--max-bytes 2000000] [--tokenizers o200k_base,llama4,qwen3.6] [FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tiktoken  # noqa: E402
from _corpora import default_corpus  # noqa: E402

from bpe_engine.audit import audit_vocabulary  # noqa: E402
from bpe_engine.metrics import measure_text  # noqa: E402
from bpe_engine.registry import load_tokenizer  # noqa: E402


def peer_of(tok: object) -> tiktoken.Encoding:
    """tiktoken over the same ranks, pattern and specials (rank-table tokenizers only)."""
    return tiktoken.Encoding(tok.name, pat_str=tok.pre_tokenizer.pattern, mergeable_ranks=tok.mergeable_ranks, special_tokens=tok.special_tokens)  # type: ignore[attr-defined]


def peer_audit(enc: tiktoken.Encoding, ranks: dict[bytes, int]) -> int:
    """The bare loop: decode each rank alone, encode it again; how many come back."""
    back = 0
    for data, rank in ranks.items():
        text = data.decode("utf-8", "replace")
        back += enc.encode_ordinary(text) == [rank]
    return back


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=None)
    parser.add_argument("--max-bytes", type=int, default=2_000_000)
    parser.add_argument("--tokenizers", default="gpt2,o200k_base,llama4,qwen3.6")
    args = parser.parse_args()
    path = Path(args.file) if args.file else default_corpus()
    text = path.read_bytes()[: args.max_bytes].decode("utf-8", "ignore")
    import tokenization_scorer

    print(f"{path.name}: {len(text):,} characters")
    print(f"{'tokenizer':<12} {'audit':>8} {'peer':>7} {'ratio':>6}   {'metrics':>8} {'peer':>7} {'ratio':>6}  efficiencies equal")
    for name in args.tokenizers.split(","):
        tok = load_tokenizer(name)
        enc = peer_of(tok)
        start = time.perf_counter()
        audit = audit_vocabulary(tok)
        ours_audit = time.perf_counter() - start
        start = time.perf_counter()
        peer_back = peer_audit(enc, tok.mergeable_ranks)
        peer_audit_time = time.perf_counter() - start
        assert audit.counts["ok"] <= peer_back  # the peer counts U+FFFD text that comes back as ok

        start = time.perf_counter()
        measured = measure_text(tok, text).as_dict(alpha=2.5, ordinary=frozenset())
        ours_metrics = time.perf_counter() - start
        start = time.perf_counter()
        spelled = " ".join(f"t{i}" for i in enc.encode_ordinary(text))
        with contextlib.redirect_stderr(io.StringIO()):  # the package prints progress bars
            shannon = tokenization_scorer.score(spelled, metric="shannon_efficiency")
            renyi = tokenization_scorer.score(spelled, metric="renyi", power=2.5)
        peer_metrics = time.perf_counter() - start
        equal = math.isclose(shannon, measured["shannon_efficiency"], rel_tol=1e-12) and math.isclose(renyi, measured["renyi_efficiency"], rel_tol=1e-12)
        print(
            f"{name:<12} {ours_audit:>7.2f}s {peer_audit_time:>6.2f}s {ours_audit / peer_audit_time:>5.1f}x   "
            f"{ours_metrics:>7.2f}s {peer_metrics:>6.2f}s {ours_metrics / peer_metrics:>5.1f}x  {equal}"
        )


if __name__ == "__main__":
    main()
