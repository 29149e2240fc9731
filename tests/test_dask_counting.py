"""Counting on a Dask cluster (a LocalCluster of 2 worker processes): the very table of the local
path -- counts and first-appearance order -- so the merges are the same too."""

from __future__ import annotations

import pytest

pytest.importorskip("dask.bag")
distributed = pytest.importorskip("distributed")

from bpe_engine.bpe_trainer import BpeTrainerConfig, BpeTraining  # noqa: E402
from bpe_engine.corpus import count_files  # noqa: E402
from bpe_engine.corpus.dask_engine import count_files_on_dask  # noqa: E402
from bpe_engine.errors import CorpusError  # noqa: E402
from bpe_engine.pretokenizers import GPT2, HF_GPT2  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as dask_client:
            yield dask_client


@pytest.fixture
def corpora(tmp_path, alice_text, korean_text):
    a = tmp_path / "alice.txt"
    a.write_text(alice_text, encoding="utf-8")
    k = tmp_path / "korean.txt"
    k.write_bytes(korean_text.encode() + b"\n<s> raw \xff byte\n")
    return [str(a), str(k)]


@pytest.mark.parametrize("lines", [False, True])
def test_dask_counts_equal_local_counts_and_give_the_same_merges(client, corpora, lines) -> None:
    local = count_files(corpora, HF_GPT2, ("<s>",), byte_level=True, lines=lines, workers=1)
    on_dask = count_files_on_dask(
        corpora, HF_GPT2, ("<s>",), byte_level=True, lines=lines, client=client, block_bytes=8192, partition_bytes=32768
    )
    assert list(on_dask.counts.items()) == list(local.counts.items())
    assert on_dask.documents == local.documents and on_dask.total_words == local.total_words
    config = BpeTrainerConfig(vocab_size=256 + 300, pre_tokenizer=HF_GPT2, special_tokens=("<s>",))
    assert BpeTraining(on_dask, config).tokenizer().merges == BpeTraining(local, config).tokenizer().merges


def test_a_bad_byte_on_a_worker_is_the_same_one_line_error(client, corpora) -> None:
    with pytest.raises(CorpusError, match=r"korean\.txt, line \d+, byte offset \d+: not valid UTF-8 \(byte 0xff\)"):
        count_files_on_dask([corpora[1]], GPT2, byte_level=False, client=client, block_bytes=4096)


def test_count_command_on_a_scheduler_and_on_its_own_local_cluster(client, corpora, tmp_path, capsys) -> None:
    from bpe_cli.main import main
    from bpe_engine.corpus.counts_file import read_counts

    outputs = {}
    for name, extra in (("local", []), ("scheduler", ["--engine", "dask", "--scheduler", client.scheduler.address]),
                        ("own-cluster", ["--engine", "dask"])):
        outputs[name] = tmp_path / f"{name}.tsv"
        assert main(["count", *corpora, "--lines", "-o", str(outputs[name]), *extra]) == 0
    capsys.readouterr()
    assert outputs["scheduler"].read_bytes() == outputs["local"].read_bytes()  # byte for byte
    assert outputs["own-cluster"].read_bytes() == outputs["local"].read_bytes()
    assert len(read_counts([outputs["local"]])[0].counts) > 1000
