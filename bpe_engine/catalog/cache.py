"""Where fetched tokenizer files live, and whether each is there and intact.

The cache is ``$BPE_EXPLORER_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/bpe-explorer``, else
``~/.cache/bpe-explorer``; a built-in ``NAME`` is kept as ``models/NAME/<its file name>`` below it.
A file counts as present only when its size and sha256 equal the pins in
:mod:`~bpe_engine.catalog.builtins`; the verdict is remembered per process for that file's
(size, mtime), so listing and loading do not hash 19 MB again and again.
"""

from __future__ import annotations

import hashlib
import os
import threading
from enum import Enum
from pathlib import Path

from .builtins import BuiltinModel

CACHE_ENV = "BPE_EXPLORER_CACHE_DIR"
_CHUNK = 1 << 20


class FileState(str, Enum):
    """What :func:`file_state` found for one built-in."""

    PRESENT = "present"  # there, size and sha256 as pinned
    MISSING = "missing"  # not fetched yet
    CORRUPT = "corrupt"  # there, but the bytes are not the pinned ones


def cache_root() -> Path:
    """The bpe-explorer cache directory (not created here)."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "bpe-explorer"


def model_path(model: BuiltinModel) -> Path:
    """Where ``model``'s file is (or will be) kept."""
    return cache_root() / "models" / model.name / model.filename


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


_verdicts: dict[tuple[str, int, int], bool] = {}
_lock = threading.Lock()


def file_state(model: BuiltinModel) -> FileState:
    """PRESENT, MISSING or CORRUPT for ``model``'s cached file (hashes it at most once per change)."""
    path = model_path(model)
    try:
        stat = path.stat()
    except OSError:
        return FileState.MISSING
    if not path.is_file():
        return FileState.CORRUPT
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    with _lock:
        verdict = _verdicts.get(key)
    if verdict is None:
        try:
            verdict = stat.st_size == model.size and sha256_of(path) == model.sha256
        except OSError:
            return FileState.MISSING
        with _lock:
            _verdicts[key] = verdict
    return FileState.PRESENT if verdict else FileState.CORRUPT


def forget_verdicts() -> None:
    """Drop the remembered checks (after a fetch rewrote files, or in tests)."""
    with _lock:
        _verdicts.clear()


__all__ = ["CACHE_ENV", "FileState", "cache_root", "file_state", "forget_verdicts", "model_path", "sha256_of"]


def cache_problem(model: BuiltinModel) -> str | None:
    """Why ``model``'s file could not be written into the cache, or None: checked before a
    download (a cache that was a file, a directory in the file's place or read-only was found
    only after pip had fetched the archive)."""
    path = model_path(model)
    if path.is_dir():
        return f"cannot save {model.name}: {path} is a directory where its file goes; remove it and fetch again"
    probe = path.parent
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        return f"cannot save {model.name}: {probe} is a file, not a directory (the cache is {cache_root()}; set {CACHE_ENV} to use another)"
    if not os.access(probe, os.W_OK | os.X_OK):
        return f"cannot save {model.name}: {probe} is not writable (the cache is {cache_root()}; set {CACHE_ENV} to use another)"
    return None
