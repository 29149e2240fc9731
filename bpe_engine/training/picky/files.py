"""A PickyBPE model as files: ``picky.json`` (ours, exact) and a ``tokenizer.json`` HF loads with our ids.

``picky.json`` holds every token ever made and every event, so :class:`~.model.PickyTokenizer`
encodes exactly as trained. ``tokenizer.json`` is a Hugging Face BPE model with the final vocabulary
at our ids (specials as added tokens), ``ignore_merges`` on (a word that is a token is that token,
PickyBPE's first rule) and, as its merges, every merge whose two parts and result are all in the
final vocabulary, in the order they were made. A split is not a BPE operation, so HF's encoding of
that file agrees with PickyBPE's on most words, not all (a token made through a removed one cannot
be built from final tokens): on alice's last fifth, 94% of the distinct words, 3.5% more tokens.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...formats.hf_json import hf_json_text
from ...formats.spec import BpeSpec
from ...pretokenizers import WHITESPACE
from .config import PICKY_SPECIALS
from .model import PickyModelState

FORMAT = "bpe-explorer-picky"
VERSION = 1


def picky_json(state: PickyModelState) -> str:
    """Every token, which are present, and the events (internal ids), as one JSON document."""
    return json.dumps({
        "format": FORMAT, "version": VERSION, "name": state.name, "tokens": list(state.tokens),
        "present": list(state.present), "merges": [list(m) for m in state.merges],
        "splits": [[rank, token, list(parts)] for rank, token, parts in state.splits],
    }, ensure_ascii=False)


def read_picky_json(data: Any) -> PickyModelState:
    """The inverse of :func:`picky_json` (``data`` already parsed)."""
    return PickyModelState(
        str(data["name"]), tuple(data["tokens"]), tuple(bool(p) for p in data["present"]),
        tuple((int(r), int(a), int(b), int(n)) for r, a, b, n in data["merges"]),
        tuple((int(r), int(t), tuple(int(p) for p in parts)) for r, t, parts in data["splits"]),
    )


def hf_spec(state: PickyModelState) -> BpeSpec:
    """The final vocabulary as a plain BPE (module docstring says what it leaves out)."""
    kept = [i for i, here in enumerate(state.present) if here]
    final = {internal: f for f, internal in enumerate(kept)}
    specials = {state.tokens[i]: final[i] for i in range(len(PICKY_SPECIALS))}
    vocab = {state.tokens[i]: final[i] for i in kept if i >= len(PICKY_SPECIALS)}
    merges: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for _, a, b, new in state.merges:
        pair = (state.tokens[a], state.tokens[b])
        if a in final and b in final and new in final and pair not in seen:
            seen.add(pair)
            merges.append(pair)
    # rank_table=True is written as HF's ignore_merges (the whole word first); ids stay ours
    return BpeSpec(state.name, vocab, merges, WHITESPACE, False, specials, "[UNK]", rank_table=True)


def write_files(state: PickyModelState, directory: Path) -> list[str]:
    """Write ``picky.json`` and ``tokenizer.json`` into ``directory`` (a fresh one the caller
    renames into place: the saved directory is atomic as a whole)."""
    (directory / "picky.json").write_text(picky_json(state), encoding="utf-8")
    (directory / "tokenizer.json").write_text(hf_json_text(hf_spec(state)), encoding="utf-8")
    return ["picky.json", "tokenizer.json"]
