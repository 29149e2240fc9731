"""A saved SentencePiece Unigram model: ``NAME.model``, ``tokenizer.json`` and ``bpe-explorer.json``.

The ``.model`` file is the model itself (``sentencepiece`` loads it; so does
:func:`bpe_engine.sentencepiece.load_model`); ``tokenizer.json`` is the same model for Hugging Face
``tokenizers``. The record says ``"model": "unigram"`` and lists both files, which the manifest
hashes, so :func:`load_unigram_dir` (what :func:`bpe_engine.registry.load_tokenizer` calls for such
a directory) reads the very ``.model`` that was saved.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import TokenizerFileError
from .bundle import FORMAT_VERSION, _safe_file_stem
from .transformers_files import sentencepiece_roles, write_transformers_files
from .saved_dir import FORMAT_NAME, METADATA_FILE, read_consistently, save_directory

MODEL = "unigram"


def save_unigram_dir(directory: str | Path, name: str, model: bytes, tokenizer_json: str) -> list[Path]:
    """``DIR/NAME.model``, ``DIR/tokenizer.json``, the two files ``transformers`` reads beside it
    (:mod:`.transformers_files`, roles from the model's own pieces) and ``bpe-explorer.json``,
    swapped in atomically."""
    from ..sentencepiece.model_proto import parse_model_bytes

    roles = sentencepiece_roles(parse_model_bytes(model, name))
    stem = _safe_file_stem(name) + ".model"

    def write(fresh: Path) -> dict[str, Any]:
        (fresh / stem).write_bytes(model)
        (fresh / "tokenizer.json").write_text(tokenizer_json, encoding="utf-8")
        files = {stem: stem, "tokenizer.json": "tokenizer.json", **write_transformers_files(fresh, roles)}
        return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "model": MODEL, "name": name, "files": files}

    return save_directory(directory, write)


def load_unigram_dir(directory: str | Path) -> Any:
    """The :class:`~bpe_engine.sentencepiece.SentencePieceTokenizer` a Unigram directory holds
    (its ``.model``, checked against the manifest), named as it was saved."""
    from ..sentencepiece import load_model

    root = Path(directory)

    def load(meta: dict[str, Any]) -> Any:
        files = meta.get("files")
        models = sorted(f for f in files.values() if isinstance(f, str) and f.endswith(".model")) if isinstance(files, dict) else []
        if len(models) != 1 or Path(models[0]).name != models[0]:
            raise TokenizerFileError(root / METADATA_FILE, 'a "unigram" record must list exactly one NAME.model file in "files"')
        name = meta.get("name") if isinstance(meta.get("name"), str) else root.name
        return load_model(root / models[0], name=name)

    return read_consistently(root, load)
