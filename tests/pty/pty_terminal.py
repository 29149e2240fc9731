"""The app in a real pseudo-terminal, as a user runs it: keys in, screen and raw bytes out.

Pilot tests run the app inside the test process, with the real stderr, no terminal and the
test's own event loop; they cannot see what a terminal gets. :class:`Terminal` launches the
*installed* ``bpe-explorer`` console script (the one beside ``sys.executable``, so CI's venv is
used) in a pty (``ptyprocess``), feeds everything it writes into a ``pyte`` screen on a reader
thread, and keeps the raw byte stream too, so a test can assert on both what is drawn and what
reached the terminal (an OSC title, a clear-screen, a C1 control).

Output is received and time-stamped on one thread and drawn into the screen on another: pyte
is pure Python and takes 50-90 ms to draw the ~60 KB of a tab switch at 120x40, which a real
terminal draws in well under a millisecond. :meth:`Terminal.watch` says when the output that
made the screen show something *arrived*, which is when a user's terminal would show it. The
screen is checked at the end of each burst of output (the app writes a frame in one go; a pause
of :data:`BURST_GAP` ends it), however far pyte lags behind: checked only when pyte had caught
up, a frame was timed by the next one that arrived while pyte was still drawing it (~25-35 ms
later after a tab switch, the focused widget's own repaint).

The process is always killed and reaped (its whole process group, so a training child of the
app goes with it), whatever the test did.
"""

from __future__ import annotations

import os
import queue
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pyte
from ptyprocess import PtyProcess
from wcwidth import wcswidth

KEYS: dict[str, bytes] = {
    "enter": b"\r",
    "tab": b"\t",
    "shift+tab": b"\x1b[Z",
    "esc": b"\x1b",
    "escape": b"\x1b",
    "backspace": b"\x7f",
    "up": b"\x1b[A",
    "down": b"\x1b[B",
    "right": b"\x1b[C",
    "left": b"\x1b[D",
    "home": b"\x1b[H",
    "end": b"\x1b[F",
    "pageup": b"\x1b[5~",
    "pagedown": b"\x1b[6~",
    "f1": b"\x1bOP",
    "f2": b"\x1bOQ",
    "f3": b"\x1bOR",
    "f4": b"\x1bOS",
    "f5": b"\x1b[15~",
    "f6": b"\x1b[17~",
    "f7": b"\x1b[18~",
    "f8": b"\x1b[19~",
    "space": b" ",
}
"""xterm key sequences (what a terminal sends for each key)."""

FAIL_ON = ("internal error", "Traceback", "Error (")
"""Screen text that means something broke: fail at once instead of waiting for a timeout."""

BURST_GAP = 0.002
"""Seconds without output that end a burst (one frame, written at once, arrives in ~1 ms)."""

ESC_SETTLE = 0.15
"""Textual waits a moment after a lone ESC to tell the escape key from an escape sequence."""


def app_command() -> list[str]:
    """The installed console script of the running interpreter's environment."""
    script = Path(sys.executable).with_name("bpe-explorer")
    if not script.exists():  # pragma: no cover - a broken install, say so plainly
        raise RuntimeError(f"{script} is missing: install the project (pip install -e '.[test]')")
    return [str(script)]


def key_bytes(key: str) -> bytes:
    """Bytes for a key name (``f2``, ``ctrl+t``, ``esc``) or a single character."""
    if key in KEYS:
        return KEYS[key]
    if key.startswith("ctrl+") and len(key) == 6:
        return bytes([ord(key[-1].lower()) - 96])
    if len(key) != 1:
        raise ValueError(f"unknown key name {key!r}: add its sequence to KEYS")
    return key.encode("utf-8")


class ScreenWatch:
    """A condition on the screen and, once it held, when the output that made it hold arrived."""

    def __init__(self, until: Callable[[str], object]) -> None:
        self.until = until
        self.arrived = 0.0  # time.perf_counter() of the chunk that made ``until`` true
        self.drawn = 0.0  # ... and of pyte having drawn it
        self._done = threading.Event()

    def seen(self, arrived: float) -> None:
        self.arrived, self.drawn = arrived, time.perf_counter()
        self._done.set()

    def wait(self, timeout: float) -> ScreenWatch:
        if not self._done.wait(timeout):
            raise TimeoutError(f"the screen never satisfied {self.until!r} in {timeout:.0f} s")
        return self


class Terminal:
    """One app process on a pty of ``cols`` x ``rows`` cells, screen kept by pyte."""

    def __init__(self, argv: Sequence[str], *, cols: int, rows: int, cwd: Path, home: Path) -> None:
        self.cols, self.rows = cols, rows
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "TERM": "xterm-256color",
            "COLORTERM": "truecolor",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
        }
        if "PYTHONPATH" in os.environ:  # a work tree run with PYTHONPATH=...: the app is its code too
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        self.screen = pyte.Screen(cols, rows)
        self._stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self._lock = threading.Lock()
        self.process = PtyProcess.spawn(list(argv), cwd=str(cwd), env=env, dimensions=(rows, cols))
        self.pid = self.process.pid
        self._chunks: queue.SimpleQueue[tuple[float, bytes] | None] = queue.SimpleQueue()
        self._watches: list[ScreenWatch] = []
        self._receiver = threading.Thread(target=self._receive, name="pty-receiver", daemon=True)
        self._reader = threading.Thread(target=self._read, name="pty-reader", daemon=True)
        self._receiver.start()
        self._reader.start()

    # -- output ----------------------------------------------------------------------------------
    def _receive(self) -> None:
        """Read the app's output as it comes, each chunk stamped with the time it arrived, and
        mark the end of each burst (``(time of its last chunk, None)``)."""
        last: float | None = None
        while True:
            if last is not None and not select.select([self.process.fd], [], [], BURST_GAP)[0]:
                self._chunks.put((last, None))
                last = None
                continue
            try:
                data = self.process.read(65536)
            except (EOFError, OSError):
                if last is not None:
                    self._chunks.put((last, None))
                self._chunks.put(None)
                return
            last = time.perf_counter()
            self._chunks.put((last, data))

    def _read(self) -> None:
        """Draw each chunk into the screen (ends once the output ended and all of it is drawn);
        at each burst's end, check the watches against the screen as that burst left it."""
        while (chunk := self._chunks.get()) is not None:
            arrived, data = chunk
            if data is None:
                with self._lock:
                    watches = list(self._watches)
                if not watches:
                    continue
                text = self.screen_text()
                for watch in watches:
                    if watch.until(text):
                        with self._lock:
                            self._watches.remove(watch)
                        watch.seen(arrived)
                continue
            with self._lock:
                self.raw += data
                self._stream.feed(data)

    def watch(self, until: Callable[[str], object]) -> ScreenWatch:
        """Watch the screen for ``until`` (a predicate of its text), checked at the end of each
        burst of output; the time given is that of the burst's last chunk (when the frame that
        did it had arrived). Start it *before* the key whose effect it awaits."""
        watch = ScreenWatch(until)
        with self._lock:
            self._watches.append(watch)
        return watch

    def screen_text(self) -> str:
        """What the terminal shows now, one line per row (trailing spaces kept)."""
        with self._lock:
            return "\n".join(self._row(y) for y in range(self.rows))

    def _row(self, y: int) -> str:
        # pyte's own ``display`` fails on an empty cell left by a half-overwritten wide character;
        # an empty cell is the right half of a wide character (or such a remnant): skip it.
        line = self.screen.buffer[y]
        return "".join(line[x].data for x in range(self.cols) if line[x].data)

    def raw_since(self, mark: int) -> bytes:
        """The raw bytes the app wrote after ``mark`` (a former ``len(term.raw)``)."""
        with self._lock:
            return bytes(self.raw[mark:])

    @property
    def mark(self) -> int:
        with self._lock:
            return len(self.raw)

    def wait_for(
        self,
        what: str | Callable[[str], object],
        timeout: float = 20.0,
        *,
        interval: float = 0.05,
        fail_on: Sequence[str] = FAIL_ON,
    ) -> str:
        """Wait until the screen shows ``what`` (a substring, or a predicate of the screen text);
        returns the screen. On timeout, or as soon as the screen shows one of ``fail_on`` (an
        internal error, a traceback), the assertion shows the screen as it was."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen_text()
            ok = what(text) if callable(what) else what in text
            if ok:
                return text
            bad = next((f for f in fail_on if f in text), None)
            if bad is not None:
                raise AssertionError(f"the screen shows {bad!r} while waiting for {what!r}:\n{text}")
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {timeout:.0f} s for {what!r}; the screen shows:\n{text}")
            if not self.process.isalive() and not self._reader.is_alive():
                raise AssertionError(
                    f"the app exited (status {self.exit_status()}) while waiting for {what!r}; last screen:\n{text}"
                )
            time.sleep(interval)

    # -- input -----------------------------------------------------------------------------------
    def send(self, data: str | bytes) -> None:
        """Write raw input (text as UTF-8)."""
        self.process.write(data.encode("utf-8") if isinstance(data, str) else data)

    def press(self, *keys: str, pause: float = 0.05) -> None:
        """Press keys by name one after another (a lone ESC waits for Textual to accept it)."""
        for key in keys:
            self.send(key_bytes(key))
            time.sleep(ESC_SETTLE if key in ("esc", "escape") else pause)

    def type(self, text: str, *, delay: float = 0.01) -> None:
        """Type ``text`` as keystrokes, one character every ``delay`` seconds."""
        for ch in text:
            self.send(ch)
            time.sleep(delay)

    def click(self, x: int, y: int) -> None:
        """Click the left button at cell (x, y), 0-based (SGR mouse reporting, as Textual asks)."""
        self.send(f"\x1b[<0;{x + 1};{y + 1}M".encode())
        time.sleep(0.03)
        self.send(f"\x1b[<0;{x + 1};{y + 1}m".encode())
        time.sleep(0.05)

    def find(self, text: str) -> tuple[int, int]:
        """Cell (x, y) where ``text`` first appears on screen (column counted in cells)."""
        for y, line in enumerate(self.screen_text().split("\n")):
            x = line.find(text)
            if x >= 0:
                return max(wcswidth(line[:x]), 0), y  # pyte shows a wide character once
        raise AssertionError(f"{text!r} is not on the screen:\n{self.screen_text()}")

    def click_text(self, text: str, dx: int = 0) -> None:
        """Click ``dx`` cells right of where ``text`` starts on screen."""
        x, y = self.find(text)
        self.click(x + dx, y)

    def paste(self, text: str) -> None:
        """Paste ``text`` as a terminal does (bracketed paste): control characters arrive as text."""
        self.send(b"\x1b[200~" + text.encode("utf-8", "surrogatepass") + b"\x1b[201~")

    # -- process ---------------------------------------------------------------------------------
    def wait_exit(self, timeout: float = 10.0) -> int | None:
        """Wait for the app to exit; its status, or None if it is still running."""
        deadline = time.monotonic() + timeout
        while self.process.isalive():
            if time.monotonic() > deadline:
                return None
            time.sleep(0.05)
        return self.exit_status()

    def exit_status(self) -> int | None:
        if self.process.isalive():
            return None
        return self.process.exitstatus if self.process.exitstatus is not None else -(self.process.signalstatus or 0)

    def group_processes(self) -> list[int]:
        """Live processes of the app's process group (the app and any child it started)."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            state, pgrp = fields[0], int(fields[2])
            if pgrp == self.pid and state not in ("Z", "X"):
                found.append(int(entry.name))
        return found

    def wait_alone(self, timeout: float = 60.0) -> None:
        """Wait until the app is the only live process of its group (its training child reaped):
        polled, so a loaded machine only makes it slower, never wrong."""
        deadline = time.monotonic() + timeout
        while (found := self.group_processes()) != [self.pid]:
            if time.monotonic() > deadline:
                raise AssertionError(f"after {timeout:.0f} s the app's group still holds {found} (app {self.pid})")
            time.sleep(0.02)

    def close(self) -> None:
        """Kill the app and everything in its process group; reap it."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.terminate(force=True)
        except Exception:  # noqa: BLE001 - already gone
            pass
        try:
            self.process.wait()
        except Exception:  # noqa: BLE001 - already reaped
            pass
        self._receiver.join(timeout=2)
        self._reader.join(timeout=2)
