"""What the toy's registration points to."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bpe_engine.explore.step_rows import tie_mark
from bpe_engine.training.protocol import Saved, TrainingCorpus
from bpe_engine.training.registry import OptionValues

from .config import ToyConfig
from .training import ToyModelState, ToyStep, ToyTraining


def config_from(values: OptionValues) -> ToyConfig:
    defaults = ToyConfig()
    return ToyConfig(
        vocab_size=int(values.get("vocab", defaults.vocab_size)),
        min_count=values.get("toymin", defaults.min_count),
        order=values.get("toyorder", defaults.order),
    )


def training(config: ToyConfig, corpus: TrainingCorpus) -> ToyTraining:
    if corpus.words is not None:
        return ToyTraining(corpus.words.word_counts(byte_level=False).counts, config)
    assert corpus.texts is not None
    return ToyTraining(corpus.texts, config)


def stepper(config: ToyConfig, text: Any, words: Any) -> Any:
    from bpe_engine.explore.stepper import Stepper

    front = config.front_end
    return Stepper.from_words(words, byte_level=False, merges=[], end_of_word_suffix=front.end_of_word_suffix, end_of_word=front.end_of_word)


def tokenizer(state: ToyModelState, name: str = "toy") -> Any:
    from bpe_engine.training.bpe import BpeTrainerConfig, tokenizer_from_state

    cfg = BpeTrainerConfig(vocab_size=max(len(state.vocab), 1), byte_level=False, max_token_length=None)
    return tokenizer_from_state(cfg, dict(state.vocab), state.merges, name=name)


def save(state: ToyModelState, directory: Path, name: str, steps: Sequence[Any]) -> Saved:
    import json

    from bpe_engine.formats.bundle import FORMAT_NAME, FORMAT_VERSION
    from bpe_engine.formats.saved_dir import save_directory

    def write(fresh: Path) -> dict[str, Any]:
        (fresh / "toy.json").write_text(json.dumps({"vocab": state.vocab, "merges": state.merges}), encoding="utf-8")
        return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "model": "toy", "name": name, "files": {"toy.json": "toy.json"}}

    return Saved(save_directory(directory, write), f"{len(state.vocab)} toy tokens, {len(steps)} toy merges")


def load(directory: Path) -> Any:
    import json

    from bpe_engine.formats.saved_dir import read_consistently

    def read(meta: dict[str, Any]) -> Any:
        data = json.loads((directory / "toy.json").read_text(encoding="utf-8"))
        state = ToyModelState(tuple((t, i) for t, i in data["vocab"]), tuple((a, b) for a, b in data["merges"]))
        return tokenizer(state, meta.get("name", "toy"))

    return read_consistently(directory, read)


def row(step: ToyStep, *, byte_level: bool) -> tuple[str, ...]:
    return f"{step.rank + 1:,}", f"{step.left}·{step.right}", f"{step.count:,}{tie_mark(step.why)}"


def title(step: ToyStep, *, byte_level: bool) -> str:
    return f"toy merge {step.rank + 1}: {step.left}·{step.right}"
