"""A trainer is one package and one registration: the registry finds it cheaply, the runner runs it
in a thread and in the child process alike, its steps render by their declared kind, and a saved
directory comes back through its own ``load`` -- shown with a toy trainer (``tests/toy_trainer``)
that nothing outside its package knows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bpe_engine.explore.step_rows import column_widths, row_of, start_row, title_of
from bpe_engine.registry import load_tokenizer
from bpe_engine.training.registry import Column, Ref, StepKind, TrainerSpec, register, spec_for, specs, step_kind
from bpe_engine.training.runner import Finished, Steps, TrainingRequest, run_training
from bpe_engine.training.steps import StepWhy
from tests.toy_trainer import registered
from tests.toy_trainer.config import ToyConfig

CORPUS = "low lower lowest newer wider\n" * 12


def test_looking_trainers_up_imports_no_trainer_and_no_numpy() -> None:
    code = (
        "import sys\n"
        "from bpe_engine.training.registry import model_choices, spec_for, specs\n"
        "[s.options for s in specs()]; model_choices(); spec_for('unigram').step_kinds\n"
        "heavy = [m for m in ('numpy', 'bpe_engine.training.bpe.training', 'bpe_engine.training.wordpiece.trainer',"
        " 'bpe_engine.training.unigram.training', 'bpe_engine.training.bpe.config') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def _run(backend: str, config: ToyConfig) -> tuple[list, Finished]:
    events = list(run_training(TrainingRequest(CORPUS, config), backend=backend))  # type: ignore[arg-type]
    steps = [s for e in events if isinstance(e, Steps) for s in e.steps]
    final = events[-1]
    assert isinstance(final, Finished), final
    return steps, final


def test_a_registered_toy_trains_in_a_thread_and_in_the_child_alike() -> None:
    with registered() as spec:
        assert spec_for("toy") is spec and "toy" in [s.name for s in specs()]
        config = ToyConfig(vocab_size=24, min_count=2)
        thread_steps, thread_end = _run("thread", config)
        child_steps, child_end = _run("child", config)  # the child registers the spec the request carries
        assert thread_steps == child_steps and len(thread_steps) == 24 - len(set(CORPUS))  # the alphabet, then merges
        assert thread_end.tokenizer is not None and child_end.tokenizer is not None
        text = "lowest newer wider low"
        assert thread_end.tokenizer.encode(text) == child_end.tokenizer.encode(text)
        assert thread_end.tokenizer.decode(thread_end.tokenizer.encode(text)) == text
        first = thread_steps[0]
        assert first.kind == "toy merge" and isinstance(first.why, StepWhy) and first.why.quantity == "count"
        assert row_of(first, byte_level=False) == ("1", f"{first.left}·{first.right}", f"{first.count:,}" + ("=" if first.why.is_tie else ""))
        assert title_of(first, byte_level=False).startswith("toy merge 1:")
        assert start_row(spec, 11) == ("0", "alphabet (11 symbols)", "")
        assert len(column_widths(thread_steps, byte_level=False)) == 3


def test_a_toy_model_saves_and_loads_through_its_own_hooks(tmp_path) -> None:  # noqa: ANN001
    with registered() as spec:
        steps, end = _run("thread", ToyConfig(vocab_size=20))
        saved = spec.hook("save")(end.model, tmp_path / "toy", "mine", steps)
        assert sorted(p.name for p in (tmp_path / "toy").iterdir()) == ["bpe-explorer.json", "toy.json"]
        loaded = load_tokenizer(tmp_path / "toy")  # the record says "toy": the toy's load reads it
        assert loaded.name == "mine" and saved.facts.startswith("20 toy tokens")
        assert loaded.encode("lower newer") == end.tokenizer.encode("lower newer")


def test_a_saved_directory_of_an_unregistered_trainer_says_so(tmp_path) -> None:  # noqa: ANN001
    with registered() as spec:
        steps, end = _run("thread", ToyConfig(vocab_size=20))
        spec.hook("save")(end.model, tmp_path / "toy", "mine", steps)
    with pytest.raises(Exception, match="names model 'toy', which no trainer here makes"):
        load_tokenizer(tmp_path / "toy")


@pytest.mark.parametrize(("model", "vocab"), [("bpe", 300), ("wordpiece", 300), ("unigram", 200)])
def test_every_built_in_step_names_a_declared_kind_and_carries_a_why(model: str, vocab: int) -> None:
    from bpe_engine.training.registry import OptionValues

    spec = spec_for(model)
    config = spec.make_config(OptionValues({"vocab": vocab}))
    text = (Path(__file__).parents[1] / "data" / "alice29.txt").read_text(encoding="utf-8")[:20_000]
    events = list(run_training(TrainingRequest(text, config), backend="thread"))
    steps = [s for e in events if isinstance(e, Steps) for s in e.steps]
    assert steps and isinstance(events[-1], Finished)
    kinds = {k.name for k in spec.step_kinds}
    for step in steps:
        assert step.kind in kinds and isinstance(step.why, StepWhy)
        assert len(row_of(step, byte_level=config.byte_level)) == len(spec.columns)
    if model == "unigram":
        quantities = {s.kind: s.why.quantity for s in steps}
        assert quantities["em"] == "log-likelihood" and quantities["prune"] == "loss"
        prune = next(s for s in steps if s.kind == "prune")
        assert prune.why.value == pytest.approx(prune.threshold) and prune.why.runner_up is not None
        em = next(s for s in steps if s.kind == "em")
        assert em.why.value == pytest.approx(-em.objective)


def test_a_step_kind_another_trainer_declares_differently_is_refused() -> None:
    other = StepKind("merge", (Column("#"), Column("x", False, True)), row=Ref("m", "r"), title=Ref("m", "t"))
    spec = TrainerSpec("clash", "Clash", "", Ref("m", "C"), Ref("m", ""), (), (other,))
    with pytest.raises(ValueError, match="declared differently by trainer 'bpe'"):
        register(spec)
    assert step_kind("merge").columns[1].title == "merge"


def test_a_trainer_registered_again_brings_its_new_kinds() -> None:
    from dataclasses import replace

    with registered() as spec:
        kind = spec.step_kinds[0]
        wider = replace(kind, columns=(*kind.columns[:2], Column("toy total")))
        register(replace(spec, step_kinds=(wider,)))  # the same trainer, declared anew
        assert step_kind("toy merge").columns[2].title == "toy total"
    assert step_kind("toy merge") == wider  # kept for steps already made, after it is gone
