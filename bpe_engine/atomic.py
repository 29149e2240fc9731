"""Atomic saves: a file, or a whole directory, is replaced in one step or not at all.

- :func:`atomic_write_bytes` writes a temp file beside the target, fsyncs it and ``os.replace``\\ s
  it over the target: readers see the old file or the new one, whole (:func:`atomic_writer`
  does the same for a file written as a stream).
- :func:`replace_directory` puts a freshly written directory in place of another in one step
  (``renameat2(RENAME_EXCHANGE)`` on Linux; elsewhere two renames, with the old directory kept
  under a recoverable name in between), so a saved tokenizer is never half old, half new.

Both respect the user's umask, as other tools do: a new file gets ``0666 & ~umask`` (a new
directory ``0777 & ~umask``), and an existing file keeps its mode (``mkstemp`` alone would make
every save ``0600``). Temp names carry the writer's process id, so :func:`clean_leftovers` can
remove what a killed save (``kill -9``, power loss) left behind without touching a save that is
still running.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import secrets
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

_LEFTOVER = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.bpe-explorer-(?:new|old|tmp)-[0-9a-z_]+(?:\.tmp)?$")
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def current_umask() -> int:
    """The process umask, read without changing it where the OS allows (``/proc``)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # no /proc: the classic read-by-setting, restored at once
    os.umask(mask)
    return mask


def _file_mode(target: Path) -> int:
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return 0o666 & ~current_umask()


def leftover_name(target: Path, kind: str) -> Path:
    """A temp name beside ``target`` that :func:`clean_leftovers` recognises (kind: new/old/tmp)."""
    return target.with_name(f".{target.name}.{os.getpid()}.bpe-explorer-{kind}-{secrets.token_hex(4)}")


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see either the old or the new file, whole."""
    with atomic_writer(path) as handle:
        handle.write(data)


@contextlib.contextmanager
def atomic_writer(path: str | Path) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through, streamed (a counts file may be gigabytes):
    readers see the old file until the block ends without an error, then the new one, whole."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = _file_mode(target)
    prefix = leftover_name(target, "tmp").name
    fd, tmp = tempfile.mkstemp(prefix=prefix[: prefix.rindex("-") + 1], suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    """UTF-8 text version of :func:`atomic_write_bytes` (newlines written as given)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def new_directory_beside(target: Path) -> Path:
    """An empty directory next to ``target`` (same filesystem, so it can be renamed over it),
    with ``target``'s mode if it exists (a private directory stays private), else the mode a
    plain ``mkdir`` would give."""
    fresh = leftover_name(target, "new")
    fresh.mkdir(mode=0o700)
    try:
        mode = stat.S_IMODE(target.stat().st_mode) if target.is_dir() else 0o777 & ~current_umask()
    except OSError:
        mode = 0o777 & ~current_umask()
    os.chmod(fresh, mode)
    return fresh


def keep_file_modes(fresh: Path, target: Path) -> None:
    """Give each file of ``fresh`` the mode of the file of the same name in ``target`` (the
    directory it replaces), as :func:`atomic_write_bytes` does for one file: a re-save never
    widens a file the user had made private. Files new to this save keep the umask's mode."""
    for path in fresh.iterdir():
        with contextlib.suppress(OSError):
            old = (target / path.name).lstat()
            if stat.S_ISREG(old.st_mode):
                os.chmod(path, stat.S_IMODE(old.st_mode))


def replace_directory(fresh: Path, target: Path) -> None:
    """Put directory ``fresh`` at ``target`` in one step; the old ``target`` (if any) is deleted.

    ``target`` must not exist, or be a directory the caller may replace (checked by the caller).
    """
    _fsync_directory(fresh)
    if not target.exists():
        os.rename(fresh, target)
        _fsync_directory(target.parent)
        return
    if _exchange(fresh, target):
        _fsync_directory(target.parent)
        shutil.rmtree(fresh, ignore_errors=True)  # ``fresh`` now holds the old directory
        return
    old = leftover_name(target, "old")
    os.rename(target, old)
    try:
        os.rename(fresh, target)
    except BaseException:
        os.rename(old, target)  # put the old one back: nothing lost
        raise
    _fsync_directory(target.parent)
    shutil.rmtree(old, ignore_errors=True)


def clean_leftovers(target: Path) -> list[Path]:
    """Remove temp files and directories that dead processes left beside ``target`` (and, if a
    two-rename replacement died between its renames, put the old directory back). Returns what
    was removed or restored."""
    parent = target.parent
    try:
        entries = list(parent.iterdir())
    except OSError:
        return []
    done: list[Path] = []
    for entry in entries:
        match = _LEFTOVER.match(entry.name)
        if match is None or match["name"] != target.name or _alive(int(match["pid"])):
            continue
        if "-old-" in entry.name and not target.exists():
            with contextlib.suppress(OSError):
                os.rename(entry, target)
                done.append(target)
                continue
        with contextlib.suppress(OSError):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
            done.append(entry)
    return done


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True  # our own: another thread may be saving right now
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux ``renameat2``); False where the OS or filesystem cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    errno = ctypes.get_errno()
    if errno in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: not supported here
        return False
    raise OSError(errno, os.strerror(errno), str(b))


def _fsync_directory(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


__all__ = [
    "atomic_write_bytes",
    "atomic_writer",
    "atomic_write_text",
    "clean_leftovers",
    "current_umask",
    "keep_file_modes",
    "new_directory_beside",
    "replace_directory",
]
