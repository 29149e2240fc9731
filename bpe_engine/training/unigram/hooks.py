"""What Unigram's registration points to (:mod:`.spec`): its config from option values, its run
over lines (or files), its stepper (every line segmented by the model of step k), its tokenizer,
and how it is saved (``NAME.model`` + ``tokenizer.json``) and loaded."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.block_text import Text, whole
from ...corpus.cut import CorpusWords
from ...display import counted
from ..protocol import Saved, TrainingCorpus
from ..registry import OptionValues
from .config import UnigramTrainerConfig

if TYPE_CHECKING:
    from ...explore.unigram_stepper import UnigramStepper
    from ...sentencepiece import SentencePieceTokenizer
    from ..runner.model_state import SentencePieceModelState
    from .training import UnigramTraining

_LISTS = ("user_defined_symbols", "control_symbols")


def config_from(values: OptionValues) -> UnigramTrainerConfig:
    """SentencePiece's config: the options given, SentencePiece's defaults for the rest."""
    from .spec import SPEC

    given: dict[str, Any] = {"vocab_size": values.get("vocab", UnigramTrainerConfig().vocab_size)}
    for option in SPEC.options:
        value = values.get(option.name)
        if value is None or option.field == "vocab_size":
            continue
        given[option.field] = tuple(s for s in str(value).split(",") if s) if option.field in _LISTS else value
    return UnigramTrainerConfig(**given).validate()


def training(config: UnigramTrainerConfig, corpus: TrainingCorpus) -> UnigramTraining:
    from .training import UnigramTraining

    if corpus.files is not None:
        return UnigramTraining(config=config, files=corpus.files, memory_limit=corpus.memory_limit)
    assert corpus.text is not None, "Unigram trains on lines"
    return UnigramTraining(whole(corpus.text).split("\n"), config)


def stepper(config: UnigramTrainerConfig, text: Text, words: CorpusWords | None) -> UnigramStepper:  # noqa: ARG001 - reads lines
    from ...explore.unigram_stepper import UnigramStepper

    return UnigramStepper(whole(text), config)


def tokenizer(state: SentencePieceModelState) -> SentencePieceTokenizer:
    return state.tokenizer()  # type: ignore[return-value]


def save(state: SentencePieceModelState, directory: Path, name: str, steps: Sequence[Any]) -> Saved:
    """``DIR/NAME.model`` (sentencepiece loads it), ``tokenizer.json``, the run's steps
    (``training.jsonl``) and the record, atomically."""
    from ...formats.unigram_dir import save_unigram_dir

    written = save_unigram_dir(directory, name, state.model_bytes, state.tokenizer_json, steps)  # the story in training.jsonl
    final = next((s for s in reversed(steps) if s.kind == "final"), None)
    pieces = len(final.pieces) if final is not None else 0
    em = sum(1 for s in steps if s.kind == "em")
    rounds = sum(1 for s in steps if s.kind == "prune")
    return Saved(written, f"{counted(pieces, 'piece')} after {counted(em, 'EM step')} and {counted(rounds, 'pruning round')}")


def load(directory: Path) -> Any:
    from ...formats.unigram_dir import load_unigram_dir

    return load_unigram_dir(directory)


__all__ = ["config_from", "load", "save", "stepper", "tokenizer", "training"]
