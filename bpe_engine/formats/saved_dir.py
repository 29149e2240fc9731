"""A saved tokenizer directory as one atomic unit, with a manifest its readers check.

What a reader of a directory written by ``bpe-explorer`` (``train``, ctrl+s, :func:`save_directory`)
can rely on:

1. **One save at a time, whole.** Every save writes a fresh directory beside the target and swaps
   it in with one rename (:func:`bpe_engine.atomic.replace_directory`). A reader never sees files
   of two saves side by side, nor files left over from an earlier save of another model type
   (a stale ``vocab.json`` or ``.tiktoken``): the old directory goes away as a whole.
2. **A manifest.** ``bpe-explorer.json`` lists every other file with its size and sha256 (and a
   ``save_id`` unique to the save).
   :func:`read_consistently` hashes the files before and after parsing them and retries when a save
   swapped the directory mid-read; a file that does not match its manifest (edited by hand,
   damaged) is an error naming the file, never a silently different tokenizer. A file deleted
   on purpose is not an error: the loader falls back to the other formats.
3. **Nothing is lost, nothing is littered.** A save that dies (``kill -9``, a full disk) leaves the
   previous directory as it was; its temp directory carries the dead process's id and is removed by
   the next save or load of the same target (:func:`bpe_engine.atomic.clean_leftovers`).
4. **Your other files are safe.** A save only replaces a directory that does not exist, is empty,
   or holds a previous save and nothing else; anything else is refused with a message, before
   any training starts when the caller checks first (:func:`check_save_target`).
5. Files get the user's umask (``0666 & ~umask``), as any tool's do; a re-saved directory and
   the files it already had keep their modes, so a re-save never widens what the user narrowed.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ..atomic import clean_leftovers, keep_file_modes, new_directory_beside, replace_directory
from ..errors import TokenizerFileError
from ..text_files import check_input
from ._json import parse_json, read_file_bytes, read_text, tokenizer_failure

METADATA_FILE = "bpe-explorer.json"
FORMAT_NAME = "bpe-explorer"
_KNOWN_FILES = ("tokenizer.json", "vocab.json", "merges.txt", "vocab.txt", METADATA_FILE)
_READ_ATTEMPTS = 6

T = TypeVar("T")


def check_save_target(directory: str | Path) -> Path:
    """The directory a save may replace, resolved; else a :class:`TokenizerFileError` saying why.

    Cheap: call it before a long training, so a bad ``--output`` fails in a second, not after.
    """
    target = Path(directory).expanduser()
    target = target.resolve() if target.exists() else target.absolute()
    try:
        here = Path.cwd().resolve()
    except OSError:  # the working directory itself was deleted
        here = None
    if here is not None and (target == here or target in here.parents):
        raise TokenizerFileError(
            target,
            "is the current directory (or holds it): a save replaces its directory whole, which would leave "
            "your shell in a deleted directory; name a directory inside it instead (e.g. -o my-tokenizer)",
        )
    if target.exists() and not target.is_dir():
        raise TokenizerFileError(target, "exists and is not a directory; choose another output directory")
    if target.is_dir():
        foreign = _foreign_files(target)
        if foreign:
            shown = ", ".join(sorted(foreign)[:3]) + (", ..." if len(foreign) > 3 else "")
            raise TokenizerFileError(
                target,
                f"holds files a save would delete ({shown}); save into a new or empty directory, "
                "or one written by bpe-explorer",
            )
    parent = target.parent
    if not parent.exists():
        return target  # created with its parents on save
    if not _writable(parent):
        raise TokenizerFileError(
            target, f"cannot be saved: its parent directory {parent} is not writable (a save builds the new directory beside it)"
        )
    return target


def save_directory(directory: str | Path, write: Callable[[Path], dict[str, Any]]) -> list[Path]:
    """Save atomically: ``write(fresh_dir)`` writes the model's files into an empty directory and
    returns the metadata record; the manifest is added, ``bpe-explorer.json`` written, and the
    directory swapped in. Returns the final paths of the files written."""
    target = check_save_target(directory)
    target.parent.mkdir(parents=True, exist_ok=True)
    clean_leftovers(target)
    fresh = new_directory_beside(target)
    try:
        meta = write(fresh)
        names = sorted(p.name for p in fresh.iterdir() if p.name != METADATA_FILE)
        meta["manifest"] = {name: _digest((fresh / name).read_bytes()) for name in names}
        meta["save_id"] = secrets.token_hex(8)  # two saves never share a record, even of the same model
        from ..atomic import atomic_write_text

        atomic_write_text(fresh / METADATA_FILE, json.dumps(meta, ensure_ascii=False, indent=2) + "\n")
        keep_file_modes(fresh, target)
        replace_directory(fresh, target)
    except BaseException:
        import shutil

        shutil.rmtree(fresh, ignore_errors=True)
        raise
    return [target / name for name in [*names, METADATA_FILE]]


def read_metadata(root: Path) -> dict[str, Any]:
    """``bpe-explorer.json`` of ``root``, checked to be ours (not a newer or foreign format)."""
    path = root / METADATA_FILE
    meta = parse_json(path, read_text(path))
    check_metadata(path, meta)
    return meta


def read_consistently(root: str | Path, load: Callable[[dict[str, Any]], T]) -> T:
    """``load(metadata)`` with every file proven to belong to that metadata's save.

    The files are hashed against the manifest before and after ``load`` reads them; if a save
    swapped the directory in between, the read starts again (a few times, briefly backing off).
    Directories written before manifests existed (format version 1) are loaded as they are.
    """
    root = Path(root)
    clean_leftovers(root)
    problem, last = "", None
    for attempt in range(_READ_ATTEMPTS):
        meta = read_metadata(root)
        manifest = meta.get("manifest")
        if manifest is None:  # version 1: read_metadata lets no later version go without a manifest
            return load(meta)
        problem = _manifest_problem(root, manifest)
        if not problem:
            try:
                result = load(meta)
            except Exception:
                # Files of two saves read together fail in odd ways ("token '\x1a' is not in GPT-2's
                # byte alphabet"): a torn read is read again; a failure of unchanged files is real.
                if not _changed(root, manifest, meta):
                    raise
            else:
                if not _changed(root, manifest, meta):
                    return result
            problem = "the directory changed while it was being read"
        elif last == (meta, problem):
            break  # the same record and the same mismatch twice: damage, not a save in progress
        last = (meta, problem)
        time.sleep(0.005 * 2**attempt)
    raise TokenizerFileError(
        root / METADATA_FILE,
        f"{problem}; the saved files no longer match the manifest (edited by hand, damaged, or being saved "
        "over right now?); save the tokenizer again, or delete bpe-explorer.json to load the other files as they are",
    )


def check_metadata(path: Path, meta: Any) -> None:
    """``meta`` is a bpe-explorer record this version can read (format name, version, types)."""
    from .bundle import FORMAT_VERSION  # the version belongs to the record's writer

    if not isinstance(meta, dict) or meta.get("format") != FORMAT_NAME:
        raise TokenizerFileError(path, f"not a {FORMAT_NAME} metadata file (\"format\" should be {FORMAT_NAME!r})")
    version = meta.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise TokenizerFileError(path, f"field \"version\" is {version!r}; expected an integer >= 1")
    if version > FORMAT_VERSION:
        raise TokenizerFileError(
            path, f"written by a newer bpe-explorer (format version {version}, this one reads {FORMAT_VERSION}); upgrade"
        )
    manifest = meta.get("manifest")
    if manifest is None and version >= 2:
        raise TokenizerFileError(path, "field \"manifest\" is missing; a version 2 directory lists its files there")
    if manifest is not None and not (
        isinstance(manifest, dict)
        and all(
            isinstance(k, str) and _is_plain_name(k) and isinstance(v, dict)
            and isinstance(v.get("sha256"), str) and isinstance(v.get("bytes"), int)
            for k, v in manifest.items()
        )
    ):
        raise TokenizerFileError(path, 'field "manifest" must map file names to {"sha256": HEX, "bytes": N}')


def _changed(root: Path, manifest: dict[str, Any], meta: dict[str, Any]) -> bool:
    """Whether a save replaced the directory since ``meta`` was read (its files or its record)."""
    try:
        return bool(_manifest_problem(root, manifest)) or read_metadata(root) != meta
    except TokenizerFileError:
        return True


def _manifest_problem(root: Path, manifest: dict[str, Any]) -> str:
    for name, expected in manifest.items():
        path = root / name
        if not os.path.lexists(path):
            continue  # deleted on purpose (the loader falls back to the other formats); never a mix
        wanted = f"the file the manifest lists ({expected['bytes']:,} bytes)"
        size = check_input(path, fail=tokenizer_failure(path), expected=wanted).size
        if size != expected["bytes"]:  # checked before reading: a file grown huge is not read to be hashed
            return f"{name} does not match its manifest entry ({size:,} bytes, the manifest says {expected['bytes']:,})"
        data = read_file_bytes(path, expected=wanted, per_byte=1)
        if _digest(data) != expected:
            return f"{name} does not match its manifest entry"
    return ""


def _digest(data: bytes) -> dict[str, Any]:
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def _is_plain_name(name: str) -> bool:
    return bool(name) and "/" not in name and "\\" not in name and name not in (".", "..") and "\0" not in name


def _foreign_files(target: Path) -> list[str]:
    """Entries of ``target`` that are not part of an earlier save (empty for an empty directory)."""
    entries = [p.name for p in target.iterdir()]
    if not entries:
        return []
    if METADATA_FILE not in entries:
        return entries  # not ours: even tokenizer files here may be the user's downloads
    try:
        meta = parse_json(target / METADATA_FILE, read_text(target / METADATA_FILE))
    except TokenizerFileError:
        meta = {}
    ours = set(_KNOWN_FILES)
    if isinstance(meta, dict):
        for key in ("manifest", "files"):
            listed = meta.get(key)
            if isinstance(listed, dict):
                ours |= {k for k in listed if isinstance(k, str)} | {v for v in listed.values() if isinstance(v, str)}
    return [
        name for name in entries
        if name not in ours and not name.endswith(".tiktoken") and not (name.startswith(".") and name.endswith(".tmp"))
    ]


def _writable(path: Path) -> bool:
    import os

    return os.access(path, os.W_OK | os.X_OK)


__all__ = ["FORMAT_NAME", "METADATA_FILE", "check_metadata", "check_save_target", "read_consistently", "read_metadata", "save_directory"]
