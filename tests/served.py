"""``bpe-explorer serve`` run as a user runs it, and the processes it starts, for the serve tests.

The installed ``bpe-explorer serve`` runs on a free port with a temporary HOME, in a session of its
own (so a test can end everything it started). Each tab's app is a child of the server: the tests
find them in ``/proc`` (Linux, like the kernel guard they check) and wait for them to end. Every
wait is for something to happen, with a deadline only for failing.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

STARTUP = 60.0  # failure deadlines: a loaded 2-core CI machine is slow to start a browser and an app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def alive(pid: int) -> bool:
    """``pid`` is a process that has not ended (a zombie has ended: it only waits to be reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (``/proc/PID/task/*/children``)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return [c for c in found if alive(c)]


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (its children, theirs, ...)."""
    found, todo = [], children(pid)
    while todo:
        found.append(todo.pop())
        todo += children(found[-1])
    return found


async def until(check: Callable[[], object], timeout: float, message: Callable[[], str] | str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(message() if callable(message) else message)
        await asyncio.sleep(0.05)


async def all_gone(pids: Iterable[int], what: str, timeout: float = STARTUP) -> None:
    """Wait until every process in ``pids`` has ended; fail naming the ones still running."""
    pids = list(pids)

    def left() -> str:
        running = [p for p in pids if alive(p)]
        return f"{what}: still running after {timeout:g} s: " + ", ".join(f"{p} {_command(p)}" for p in running)

    await until(lambda: not any(alive(p) for p in pids), timeout, left)


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


class ServeProcess:
    """``bpe-explorer serve --port P ARGS...``; :meth:`close` ends it and any process left of it."""

    def __init__(self, tmp_path: Path, *args: str) -> None:
        self.port = free_port()
        self.log_path = tmp_path / "serve.log"
        home = tmp_path / "home"
        home.mkdir(exist_ok=True)
        script = Path(sys.executable).with_name("bpe-explorer")
        self.process = subprocess.Popen(
            [str(script), "serve", "--port", str(self.port), *args], cwd=tmp_path, env={**os.environ, "HOME": str(home)},
            stdin=subprocess.DEVNULL, stdout=self.log_path.open("wb"), stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        self.seen: set[int] = set()  # every app this server was seen to run

    @property
    def pid(self) -> int:
        return self.process.pid

    async def listening(self) -> None:
        await until(lambda: accepts(self.port) or self.process.poll() is not None, STARTUP, f"no server on {self.port}")
        assert self.process.poll() is None, f"bpe-explorer serve ended: {self.log()}"

    def apps(self) -> list[int]:
        """The apps running for its tabs now (remembered in :attr:`seen`, to check they end)."""
        running = children(self.pid)
        self.seen.update(running, *(descendants(p) for p in running))
        return running

    async def an_app_started(self) -> int:
        await until(self.apps, STARTUP, lambda: f"the server started no app: {self.log()}")
        return self.apps()[0]

    def stop(self, number: signal.Signals = signal.SIGTERM) -> None:
        self.process.send_signal(number)

    async def ended(self) -> int:
        await until(lambda: self.process.poll() is not None, STARTUP, lambda: f"the server did not stop: {self.log()}")
        return self.process.returncode

    def log(self) -> str:
        return f"--- serve.log (tail) ---\n{self.log_path.read_text(errors='replace')[-3000:]}"

    def close(self) -> None:
        """End the server and whatever it left (a test that failed must not leave a runaway app)."""
        for pid in [self.pid, *self.seen]:
            if alive(pid):
                try:
                    os.killpg(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
        self.process.wait()


__all__ = ["STARTUP", "ServeProcess", "accepts", "alive", "all_gone", "children", "descendants", "free_port", "until"]
