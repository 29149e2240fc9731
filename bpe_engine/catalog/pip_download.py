"""Download one pinned archive with pip itself -- the only way bpe-explorer touches the network.

``python -m pip download --no-deps`` run with *this* interpreter, so the user's pip configuration
(index URL, proxies, certificates, ``PIP_*`` variables, credentials in ``pip.conf``/keyring) applies
exactly as for ``pip install``. The requirement goes through a requirements file with
``--require-hashes``: pip refuses an archive whose sha256 is not the pinned one *before* it opens
it (for an sdist, before its build backend runs to prepare metadata). Wheels are asked for with
``--only-binary :all:``, sdists with ``--no-binary :all:``.

pip runs as a child process whose output is read line by line: each line goes to ``on_line``
(progress), and ``cancel.is_set()`` is polled so that a cancelled fetch kills pip at once.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from ..display import visible_text
from ..errors import BpeEngineError
from ..processes import dies_with_parent
from .builtins import Release

_POLL_SECONDS = 0.1
_KEEP_LINES = 40


class CancelToken(Protocol):
    """Anything with ``is_set()`` -- a :class:`threading.Event` is one."""

    def is_set(self) -> bool: ...


class FetchError(BpeEngineError):
    """A fetch failed (no pip, no index, a checksum that does not match); the message says why."""


class FetchCancelled(BpeEngineError):
    """The caller cancelled a fetch; nothing half-written was kept."""


def pip_command(release: Release, requirements: Path, dest: Path, extra_args: Sequence[str] = ()) -> list[str]:
    """The pip command line that downloads ``release`` into ``dest``."""
    binary = ["--only-binary", ":all:"] if release.archive == "wheel" else ["--no-binary", ":all:"]
    return [
        sys.executable, "-m", "pip", "download", "--no-deps", "--no-input", "--disable-pip-version-check",
        "--progress-bar", "off", "--require-hashes", *binary, "-r", str(requirements), "-d", str(dest), *extra_args,
    ]  # fmt: skip


def pip_download(
    release: Release,
    dest: Path,
    *,
    on_line: Callable[[str], None] | None = None,
    cancel: CancelToken | None = None,
    extra_args: Sequence[str] = (),
) -> Path:
    """Download ``release``'s archive into the empty directory ``dest`` and return its path.

    Raises :class:`FetchError` with a one-line reason, or :class:`FetchCancelled`.
    """
    requirements = dest / "requirements.txt"
    requirements.write_text(f"{release.requirement} --hash=sha256:{release.archive_sha256}\n", encoding="utf-8")
    archives = dest / "archives"
    command = pip_command(release, requirements, archives, extra_args)
    try:
        process = subprocess.Popen(
            dies_with_parent(command), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, encoding="utf-8", errors="replace",
        )  # fmt: skip
    except OSError as exc:
        raise FetchError(f"cannot run {sys.executable} -m pip: {exc.strerror or exc}") from None
    lines = _read_lines(process, on_line, cancel)
    if process.returncode != 0:
        raise FetchError(_failure(release, lines))
    found = sorted(archives.iterdir()) if archives.is_dir() else []
    if len(found) != 1:
        raise FetchError(f"pip downloaded {len(found)} files for {release.requirement}, expected its one {release.archive}")
    return found[0]


def _read_lines(process: subprocess.Popen[str], on_line: Callable[[str], None] | None, cancel: CancelToken | None) -> list[str]:
    """Pump pip's output to ``on_line`` until it exits; kill it if ``cancel`` is set."""
    lines: queue.Queue[str | None] = queue.Queue()
    assert process.stdout is not None
    stream = process.stdout

    def pump() -> None:
        for line in stream:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    reader = threading.Thread(target=pump, name="pip-output", daemon=True)
    reader.start()
    kept: list[str] = []
    while True:
        if cancel is not None and cancel.is_set():
            process.kill()
            process.wait()
            reader.join(timeout=5)  # the pipe is at EOF once pip is gone
            stream.close()
            raise FetchCancelled("fetch cancelled; pip was stopped and nothing was kept")
        try:
            line = lines.get(timeout=_POLL_SECONDS)
        except queue.Empty:
            continue
        if line is None:
            break
        kept = [*kept[-_KEEP_LINES:], line]
        if on_line is not None and line.strip():
            on_line(line.strip())
    process.wait()
    reader.join()
    stream.close()
    return kept


def _failure(release: Release, lines: list[str]) -> str:
    """pip's failure as one line that says what to do."""
    text = "\n".join(lines)
    what = f"{release.requirement} ({release.archive})"
    if "No module named pip" in text:
        return f"pip is not available to {sys.executable}; install it (python -m ensurepip) and fetch again"
    if "DO NOT MATCH THE HASHES" in text:
        return (
            f"the archive of {what} from the package index does not match its pinned sha256 "
            f"{release.archive_sha256[:16]}...; pip deleted it and nothing was kept"
        )
    errors = [line.strip() for line in lines if line.strip().startswith("ERROR:")]
    reason = errors[0][len("ERROR:") :].strip() if errors else (lines[-1].strip() if lines else "no output")
    return (
        f"pip could not download {what}: {visible_text(reason)[:300]}; "
        "check your network and package index settings (pip config list)"
    )


__all__ = ["CancelToken", "FetchCancelled", "FetchError", "pip_command", "pip_download"]
