"""Counting on a Dask cluster (a LocalCluster of 2 worker processes): the very table of the local
path -- counts and first-appearance order -- so the merges are the same too.

The cluster runs in a child Python process: Dask leaves helper processes (multiprocessing's
resource tracker) alive until their parent exits, and other tests check that the test process has
no children left.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.oracles import require

require("dask.bag")
require("distributed")

SCRIPT = textwrap.dedent(
    """
    import sys
    import distributed
    from bpe_cli.main import main
    from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining
    from bpe_engine.corpus import count_files
    from bpe_engine.corpus.counts_file import read_counts
    from bpe_engine.corpus.dask_engine import count_files_on_dask
    from bpe_engine.errors import CorpusError
    from bpe_engine.pretokenizers import GPT2, HF_GPT2

    def checks(corpora, tmp):
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
            with distributed.Client(cluster) as client:
                for lines in (False, True):  # the same table, in the same order, so the same merges
                    local = count_files(corpora, HF_GPT2, ("<s>",), byte_level=True, lines=lines, workers=1)
                    on_dask = count_files_on_dask(corpora, HF_GPT2, ("<s>",), byte_level=True, lines=lines, client=client,
                                                  block_bytes=8192, partition_bytes=32768)
                    assert list(on_dask.counts.items()) == list(local.counts.items()), lines
                    assert on_dask.documents == local.documents and on_dask.total_words == local.total_words
                    config = BpeTrainerConfig(vocab_size=256 + 300, pre_tokenizer=HF_GPT2, special_tokens=("<s>",))
                    assert BpeTraining(on_dask, config).tokenizer().merges == BpeTraining(local, config).tokenizer().merges
                try:  # a bad byte on a worker is the same one-line error
                    count_files_on_dask([corpora[1]], GPT2, byte_level=False, client=client, block_bytes=4096)
                    raise AssertionError("no error")
                except CorpusError as exc:
                    assert "korean.txt, line " in str(exc) and "not valid UTF-8 (byte 0xff)" in str(exc), exc
                outputs = {}
                for name, extra in (("local", []), ("scheduler", ["--engine", "dask", "--scheduler", client.scheduler.address]),
                                    ("own-cluster", ["--engine", "dask"])):
                    outputs[name] = f"{tmp}/{name}.tsv"
                    assert main(["count", *corpora, "--lines", "-o", outputs[name], *extra]) == 0
        local = open(outputs["local"], "rb").read()
        assert open(outputs["scheduler"], "rb").read() == local  # byte for byte
        assert open(outputs["own-cluster"], "rb").read() == local
        assert len(read_counts([outputs["local"]])[0].counts) > 1000
        print("dask checks passed")

    if __name__ == "__main__":
        checks(sys.argv[1:3], sys.argv[3])
    """
)


def test_dask_counts_equal_local_counts_bytes_merges_and_errors(tmp_path, alice_text, korean_text) -> None:
    a = tmp_path / "alice.txt"
    a.write_text(alice_text, encoding="utf-8")
    k = tmp_path / "korean.txt"
    k.write_bytes(korean_text.encode() + b"\n<s> raw \xff byte\n")
    script = tmp_path / "dask_checks.py"
    script.write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), str(a), str(k), str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "dask checks passed" in done.stdout, done.stderr[-3000:]
