"""What SuperBPE's registration points to (:mod:`.spec`). Its model is a BPE: it saves and loads as one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bpe import hooks as bpe_hooks
from ..front_options import pre_tokenizer_from
from ..protocol import Saved, TrainingCorpus
from ..registry import OptionValues
from .config import SuperBpeConfig

if TYPE_CHECKING:
    from ...bpe.model import BpeTokenizer
    from ..runner.model_state import MergeModelState
    from .training import SuperBpeTraining


def config_from(values: OptionValues) -> SuperBpeConfig:
    defaults = SuperBpeConfig(vocab_size=int(values.get("vocab", 1000)))
    pre = pre_tokenizer_from(values, default="gpt2")
    assert pre is not None
    words = values.get("maxwords")
    return SuperBpeConfig(
        vocab_size=defaults.vocab_size,
        transition=values.get("transition", 0),
        pre_tokenizer=pre,
        colon_rule=values.get("colon", defaults.colon_rule),
        max_words=defaults.max_words if words is None else (words or None),
        tie_break=values.get("supertie", defaults.tie_break),
        special_tokens=values.specials,
    )


def training(config: SuperBpeConfig, corpus: TrainingCorpus) -> SuperBpeTraining:
    from ...core.block_text import whole
    from .training import SuperBpeTraining

    texts = corpus.texts if corpus.texts is not None else [whole(corpus.text)] if corpus.text is not None else None
    assert texts is not None, "SuperBPE reads the text twice: once per stage's pre-tokenizer"
    return SuperBpeTraining(texts, config)


def stepper(config: SuperBpeConfig, text: Any, words: Any) -> Any:
    """BPE's merge replay over the stage-2 cut (stage 1's merges over those words are where stage 2 starts)."""
    return bpe_hooks.stepper(config, text, words)


def tokenizer(state: MergeModelState) -> BpeTokenizer:
    from ..bpe.training import tokenizer_from_state

    return tokenizer_from_state(state.config.stage_config(2), dict(state.vocab), state.merges)


def save(state: MergeModelState, directory: Path, name: str, steps: Sequence[Any]) -> Saved:
    """As BPE's: every format the model fits (its pre-tokenizer is a regex: HF's Split + ByteLevel)."""
    from dataclasses import replace

    return bpe_hooks.save(replace(state, config=state.config.stage_config(2)), directory, name, steps)


def load(directory: Path) -> Any:
    return bpe_hooks.load(directory)
