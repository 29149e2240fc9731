"""A Scaffold-BPE model as files: ``scaffold.json`` (ours, exact) and a ``tokenizer.json`` HF loads with our ids.

``scaffold.json`` holds the BPE of every merge (scaffolds included: encoding builds through them)
and which tokens are scaffolds, so :class:`~.model.ScaffoldTokenizer` encodes exactly as trained.
``tokenizer.json`` is a Hugging Face BPE with the final vocabulary at our ids, ``ignore_merges`` on,
and the merges whose two parts and result are all in it: HF cannot break a scaffold into its parts,
so a token built through a scaffold is out of its reach (the save says so).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...formats.hf_json import hf_json_text
from ...formats.spec import BpeSpec
from ...pretokenizers import get_pretokenizer
from ..bpe.config import BpeTrainerConfig
from ..runner.model_state import MergeModelState
from .model import ScaffoldModelState, ScaffoldTokenizer

FORMAT = "bpe-explorer-scaffold"


def scaffold_json(state: ScaffoldModelState) -> str:
    cfg = state.bpe.config
    pre = cfg.pre_tokenizer
    return json.dumps({
        "format": FORMAT, "version": 1, "byte_level": cfg.byte_level, "pre_tokenizer": pre.name, "pattern": pre.pattern,
        "special_tokens": list(cfg.special_tokens), "unk_token": cfg.unk_token,
        "vocab": [list(item) for item in state.bpe.vocab], "merges": [list(m) for m in state.bpe.merges],
        "scaffolds": sorted(state.scaffolds), "parts": [list(p) for p in state.parts],
    }, ensure_ascii=False)


def read_scaffold_json(data: Any) -> ScaffoldModelState:
    pre = get_pretokenizer(data["pre_tokenizer"], data.get("pattern"))
    vocab = tuple((str(t), int(i)) for t, i in data["vocab"])
    cfg = BpeTrainerConfig(
        vocab_size=max(len(vocab), 1), byte_level=bool(data["byte_level"]), pre_tokenizer=pre,
        special_tokens=tuple(data["special_tokens"]), unk_token=data.get("unk_token"), max_token_length=None,
    )
    merges = tuple((str(a), str(b)) for a, b in data["merges"])
    parts = tuple((int(t), int(a), int(b)) for t, a, b in data["parts"])
    return ScaffoldModelState(MergeModelState(cfg, vocab, merges), frozenset(int(i) for i in data["scaffolds"]), parts)


def hf_spec(tokenizer: ScaffoldTokenizer, state: ScaffoldModelState, name: str) -> BpeSpec:
    """The final vocabulary as a plain BPE (module docstring says what it leaves out)."""
    cfg = state.bpe.config
    specials = tokenizer.special_tokens
    vocab = {t: i for t, i in tokenizer.vocab.items() if t not in specials}
    merges = [(a, b) for a, b in state.bpe.merges if a in vocab and b in vocab and a + b in vocab]
    # rank_table=True is written as HF's ignore_merges (a word that is a token stays whole)
    return BpeSpec(name, vocab, list(dict.fromkeys(merges)), cfg.pre_tokenizer, cfg.byte_level, specials, cfg.unk_token, rank_table=True)


def write_files(state: ScaffoldModelState, directory: Path, name: str) -> list[str]:
    (directory / "scaffold.json").write_text(scaffold_json(state), encoding="utf-8")
    tokenizer = ScaffoldTokenizer(state)
    (directory / "tokenizer.json").write_text(hf_json_text(hf_spec(tokenizer, state, name)), encoding="utf-8")
    return ["scaffold.json", "tokenizer.json"]
