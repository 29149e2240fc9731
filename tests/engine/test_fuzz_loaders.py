"""Random bytes and random JSON shapes into every file loader -- vocab.json +
merges.txt, .tiktoken, a saved bpe-explorer directory, vocab.txt -- give a clean BpeEngineError or
a working tokenizer, within a time and memory budget (the harness is ``fuzz_loaders``)."""

from __future__ import annotations

import atexit
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.formats import save_tokenizer
from bpe_engine.pretokenizers import GPT2
from bpe_engine.registry import load_tokenizer
from bpe_engine.training.bpe import BpeTrainerConfig, train
from tests.fuzz_loaders import check_load, json_documents, mutated_json, random_bytes

ROOT = Path(__file__).resolve().parents[2]
FUZZ = settings(max_examples=40)


def _trained():
    config = BpeTrainerConfig(vocab_size=270, pre_tokenizer=GPT2, special_tokens=("<|endoftext|>",))
    return train(["low lower lowest newer newest wider widest " * 5], config).tokenizer


SCRATCH = Path(tempfile.mkdtemp(prefix="bpe-explorer-fuzz-"))  # one folder for every case, removed at exit
atexit.register(shutil.rmtree, SCRATCH, True)
SAVED = SCRATCH / "tok"
save_tokenizer(_trained(), SAVED)
VALID_VOCAB = json.loads((SAVED / "vocab.json").read_text(encoding="utf-8"))
VALID_MERGES = (SAVED / "merges.txt").read_text(encoding="utf-8")
VALID_META = json.loads((SAVED / "bpe-explorer.json").read_text(encoding="utf-8"))
VALID_TIKTOKEN = next(SAVED.glob("*.tiktoken")).read_text(encoding="ascii")


def _write(files: dict[str, bytes | str]) -> Path:
    folder = Path(tempfile.mkdtemp(dir=SCRATCH))
    for name, data in files.items():
        path = folder / name
        if isinstance(data, str):
            path.write_text(data, encoding="utf-8")
        else:
            path.write_bytes(data)
    return folder


def _load(path: Path):
    return lambda: load_tokenizer(path)


@FUZZ
@given(vocab=st.one_of(json_documents(), mutated_json(VALID_VOCAB), random_bytes()), merges=st.one_of(random_bytes(), st.just(VALID_MERGES)))
def test_vocab_json_and_merges_txt(vocab, merges) -> None:
    check_load(_load(_write({"vocab.json": vocab, "merges.txt": merges})))


@FUZZ
@given(lines=st.lists(st.tuples(st.sampled_from(sorted(VALID_VOCAB)), st.sampled_from(sorted(VALID_VOCAB))), max_size=30))
def test_merges_txt_of_random_pairs(lines) -> None:
    merges = "#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in lines)
    check_load(_load(_write({"vocab.json": json.dumps(VALID_VOCAB), "merges.txt": merges})))


def _rank_lines(draw_lines) -> str:
    return "".join(f"{base64.b64encode(token).decode()} {rank}\n" for token, rank in draw_lines)


@FUZZ
@given(
    data=st.one_of(
        random_bytes(),
        st.lists(st.tuples(st.binary(min_size=1, max_size=4), st.integers(-3, 600)), max_size=40).map(_rank_lines),
        st.integers(0, len(VALID_TIKTOKEN) - 1).map(lambda cut: VALID_TIKTOKEN[:cut]),
        st.sampled_from([10**12, -4, 10**8, 300]).map(lambda rank: VALID_TIKTOKEN + f"{base64.b64encode(b'zz').decode()} {rank}\n"),
    )
)
def test_tiktoken_files(data) -> None:
    check_load(_load(_write({"x.tiktoken": data}) / "x.tiktoken"))


@FUZZ
@given(meta=st.one_of(mutated_json(VALID_META), json_documents()))
def test_saved_directory_metadata(meta) -> None:
    folder = _write({"bpe-explorer.json": meta})
    for path in SAVED.iterdir():
        if path.name != "bpe-explorer.json":
            (folder / path.name).write_bytes(path.read_bytes())
    check_load(_load(folder))


@FUZZ
@given(data=st.one_of(random_bytes(), st.lists(st.sampled_from(["[UNK]", "a", "##b", "", " ", "ab", "[UNK]"]), max_size=12).map("\n".join)))
def test_vocab_txt(data) -> None:
    check_load(_load(_write({"vocab.txt": data}) / "vocab.txt"))


MEMORY_PROBE = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # 1 GiB: far above a sane load
from bpe_engine.errors import BpeEngineError
from bpe_engine.registry import load_tokenizer
try:
    load_tokenizer(sys.argv[1])
except BpeEngineError as exc:
    print("clean:", exc)
"""


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("vocab.json", json.dumps({**VALID_VOCAB, "Ġhuge": 10**8})),
        ("x.tiktoken", VALID_TIKTOKEN + "enp6 100000000\n"),
    ],
    ids=["vocab.json", "tiktoken"],
)
def test_huge_ids_stay_within_a_memory_bound_in_a_real_process(tmp_path: Path, name: str, text: str) -> None:
    """10**8 used to build a 10**8-entry table (2.3 GB, 39 s): under a 1 GiB address-space limit it
    must end in a clean one-line error, not a MemoryError traceback."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    if name == "vocab.json":
        (tmp_path / "merges.txt").write_text(VALID_MERGES, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", MEMORY_PROBE, str(tmp_path / name)], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("clean:") and "100000000" in done.stdout
