"""``train``'s flags are made from the registered trainers' options: a toy trainer registered in a
test (``tests/toy_trainer``) gets its flags, trains through the same loop, saves and loads."""

from __future__ import annotations

import json

import pytest

from bpe_cli.main import main
from bpe_cli.train_options import one_of
from bpe_engine.registry import load_tokenizer
from bpe_engine.training.registry import specs
from bpe_engine.training.runner import Finished, TrainingRequest, run_training
from tests.toy_trainer import registered
from tests.toy_trainer.config import ToyConfig

CORPUS = "low lower lowest newer wider\n" * 12


def run(capsys, *argv: str) -> tuple[int, str, str]:  # noqa: ANN001
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_train_help_lists_the_toys_generated_flags_with_their_defaults(capsys) -> None:  # noqa: ANN001
    with registered():
        try:
            main(["train", "--help"])
        except SystemExit:
            pass
        out = capsys.readouterr().out
        models = "{" + ",".join(s.name for s in specs()) + "}"
    assert "--model toy (Toy)" in out and "--toy-min-count" in out and "toy: default 2" in out
    assert models.endswith(",toy}") and models in out and "--toy-order {first,last}" in out


def test_train_model_toy_trains_with_its_flags_saves_and_loads(tmp_path, capsys) -> None:  # noqa: ANN001
    corpus = tmp_path / "c.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    with registered():
        code, out, err = run(capsys, "train", str(corpus), "--model", "toy", "--vocab-size", "20", "--toy-min-count", "3",
                             "--toy-order", "last", "-o", str(tmp_path / "t"))
        assert code == 0, err
        assert "trained 't': 20 toy tokens, " in out and "toying" in err  # the kind's progress label
        loaded = load_tokenizer(tmp_path / "t")
        (end,) = [e for e in run_training(TrainingRequest(CORPUS, ToyConfig(20, 3, "last")), backend="thread") if isinstance(e, Finished)]
        assert end.tokenizer is not None
        assert loaded.encode("lower wider newest") == end.tokenizer.encode("lower wider newest")
        assert json.loads((tmp_path / "t" / "bpe-explorer.json").read_text())["model"] == "toy"


def test_a_flag_of_another_trainer_is_refused_naming_the_models_it_applies_to(tmp_path, capsys) -> None:  # noqa: ANN001
    corpus = tmp_path / "c.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    with registered():
        code, _out, err = run(capsys, "train", str(corpus), "--model", "toy", "--vocab-size", "20", "--tie-break", "hf",
                              "-o", str(tmp_path / "t"))
        users = one_of([s.name for s in specs() if any(o.cli_flag == "--tie-break" for o in s.options)])
        assert code == 2 and f"--tie-break applies to --model {users}, not to --model toy" in err and users.startswith("bpe")
        code, _out, err = run(capsys, "train", str(corpus), "--vocab-size", "300", "--toy-min-count", "3", "-o", str(tmp_path / "u"))
        assert code == 2 and "--toy-min-count applies to --model toy, not to --model bpe" in err
        code, _out, err = run(capsys, "train", str(corpus), "--model", "toy", "--vocab-size", "20", "--toy-min-count", "0",
                              "-o", str(tmp_path / "v"))
        assert code == 2 and "error: --toy-min-count must be at least 1, got 0" in err  # the config's check, named by its flag


@pytest.mark.parametrize(
    ("model", "extra", "said"),
    [
        ("wordpiece", ["--tie-break", "hf"], "--tie-break applies to --model bpe, extend, picky, scaffold or superbpe, not to --model wordpiece"),
        ("wordpiece", ["--byte-level"], "--byte-level applies to --model bpe or scaffold, not to --model wordpiece"),
        ("unigram", ["--pre-tokenizer", "gpt2"], "--pre-tokenizer applies to --model bpe, wordpiece, scaffold or superbpe, not to --model unigram"),
        ("bpe", ["--character-coverage", "0.99"], "--character-coverage applies to --model unigram or picky, not to --model bpe"),
        ("wordpiece", ["--from-counts"], "--from-counts trains --model bpe, extend, picky or scaffold; --model wordpiece reads its corpus itself"),
    ],
)
def test_a_built_in_models_flags_apply_to_it_alone(tmp_path, capsys, model: str, extra: list[str], said: str) -> None:  # noqa: ANN001
    corpus = tmp_path / "c.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    code, _out, err = run(capsys, "train", str(corpus), "--model", model, "--vocab-size", "300", *extra, "-o", str(tmp_path / "t"))
    assert code == 2 and said in err and err.count("\n") == 1
    assert not (tmp_path / "t").exists(), "refused before anything is written"
