"""The child-process backend: a run in its own interpreter, which can always be killed.

Why a child: the merge loop is pure Python. In a thread it shares the GIL with the UI (frames
waited 200-350 ms while 1 MB trained on a 2-core machine), and a user's regex or any other work
that cannot be interrupted could only be stopped by ending the whole app. A child process has its
own interpreter and is killed on cancel.

Why not ``multiprocessing``: its spawn machinery hands the parent's stderr descriptor to helper
processes, and inside a running Textual app ``sys.stderr`` is a stand-in whose ``fileno()`` is -1
(the first release failed with ``bad value(s) in fds_to_keep`` on every corpus above 300,000
characters, in a terminal only). This backend takes nothing from the parent's stdio: the child is
``python -m bpe_engine.training.runner.child`` with a pipe for the request and the events
(:mod:`.frames`) and its stderr in a log file whose tail is shown if it dies. Closing its stdin
(the parent cancelled, quit or died) ends it at once.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from ...display import counted
from .events import Cancelled, Event, Failed, Finished, Started, Steps
from .frames import read_frame, write_frame
from .request import TrainingRequest

CHILD_NICENESS = 10
"""How much the child yields the CPU (``os.nice``): the process that asked for the run is the one a
user is waiting on, and on a 2-core machine the merge loop, the app and the terminal compete for
the same cores."""
POLL_SECONDS = 0.05  # how often the parent looks at its cancel flag while it waits for a frame
KILL_WAIT = 2.0
LOG_TAIL_LINES = 6
_PACKAGE_ROOT = Path(__file__).resolve().parents[3]  # the directory holding bpe_engine/


def child_events(request: TrainingRequest, *, cancelled: Callable[[], bool]) -> Iterator[Event]:
    """Run ``request`` in a child process and yield its events (the same protocol as a thread).

    On cancel the child is killed and reaped at once, and :class:`Cancelled` is yielded. If the
    child dies, :class:`Failed` says so with its exit status and the tail of its log.

    A reader thread takes the child's frames off the pipe as they come, so the child never waits
    for its consumer: the app's worker spends ~0.5 s building the stepper after ``Started``, and
    the pipe's 64 KB (one or two batches of early merges) would otherwise stop the merge loop there.
    """
    log = tempfile.NamedTemporaryFile(prefix="bpe-explorer-training-", suffix=".log", delete=False)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(_PACKAGE_ROOT), env.get("PYTHONPATH", "")) if p)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "bpe_engine.training.runner.child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            close_fds=True,
            env=env,
        )
    except OSError as exc:
        log.close()
        yield Failed(f"cannot start the training process: {exc}")
        return
    log.close()
    done = 0
    ended = False
    frames: queue.Queue[Event | _PipeEnded] = queue.Queue()
    assert process.stdin is not None and process.stdout is not None
    reader = threading.Thread(target=_read_frames, args=(process.stdout, frames), daemon=True)
    try:
        write_frame(process.stdin, request.for_child())
        reader.start()
        while True:
            if cancelled():
                yield Cancelled(done)
                return
            try:
                event = frames.get(timeout=POLL_SECONDS)
            except queue.Empty:
                continue
            if isinstance(event, _PipeEnded):
                ended = True
                yield Failed(_died(process, done, log.name, event.detail))
                return
            if isinstance(event, Steps):
                done = event.done
            if isinstance(event, Started) and event.words is None:  # the cut we sent: not sent back
                event = replace(event, words=request.cut_words())
            if cancelled():
                yield Cancelled(done)
                return
            ended = isinstance(event, (Finished, Failed, Cancelled))
            if ended:  # reap the child before the last event, so "done" on screen means it is gone
                _stop(process, graceful=True)
            yield event
            if ended:
                return
    except (BrokenPipeError, OSError) as exc:
        yield Failed(_died(process, done, log.name, str(exc)))
    finally:
        _stop(process, graceful=ended)
        if reader.ident is None:  # never started (the request could not be sent): close it here
            process.stdout.close()
        elif reader.is_alive():  # the child is gone: its pipe is at EOF, the reader ends now
            reader.join(KILL_WAIT)
        try:
            os.unlink(log.name)
        except OSError:
            pass


@dataclass(frozen=True)
class _PipeEnded:
    """The child's stdout closed (it exited or died) before a final event; ``detail`` says how."""

    detail: str = ""


def _read_frames(stream: BinaryIO, frames: queue.Queue[Event | _PipeEnded]) -> None:
    """Move every frame of ``stream`` into ``frames`` until the pipe ends; the stream is this
    thread's to close (closing it from another thread could pull a reused descriptor from under
    a blocked read)."""
    try:
        while True:
            frames.put(read_frame(stream))
    except EOFError:
        frames.put(_PipeEnded())
    except Exception as exc:  # a torn frame from a dying child: reported as its death
        frames.put(_PipeEnded(f"{type(exc).__name__}: {exc}"))
    finally:
        try:
            stream.close()
        except OSError:
            pass


def _died(process: subprocess.Popen[bytes], done: int, log: str, detail: str = "") -> str:
    try:
        process.wait(KILL_WAIT)
    except subprocess.TimeoutExpired:
        pass
    tail = ""
    try:
        lines = Path(log).read_text(encoding="utf-8", errors="replace").strip().splitlines()
        tail = " | ".join(lines[-LOG_TAIL_LINES:])
    except OSError:
        pass
    why = f"exit code {process.returncode}" if process.returncode is not None else detail or "no exit code"
    message = (
        f"the training process stopped unexpectedly ({why}) after {counted(done, 'merge')}; "
        "train again, or use a smaller corpus if memory is short"
    )
    return f"{message}. Its last words: {tail}" if tail else message


def _stop(process: subprocess.Popen[bytes], *, graceful: bool) -> None:
    """The child is gone and reaped (no zombie) however the run ended (its stdout is the reader
    thread's: it closes when the child is gone)."""
    try:
        if process.stdin is not None:
            process.stdin.close()
    except OSError:
        pass
    if graceful:
        try:
            process.wait(KILL_WAIT)
            return
        except subprocess.TimeoutExpired:
            pass
    if process.poll() is None:
        process.kill()
    process.wait()


# -- inside the child ------------------------------------------------------------------------------
def main() -> int:
    """Read one request from stdin, write its events to stdout, exit. EOF on stdin ends it."""
    import gc

    gc.disable()  # short-lived, its containers live to the end: full collections only cost
    _yield_the_cpu()
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the frames
    try:
        request = read_frame(stdin)
    except EOFError:
        return 0
    threading.Thread(target=_exit_on_eof, args=(stdin,), daemon=True).start()
    from .session import training_events

    try:
        given = request.cut_words() is not None
        for event in training_events(request):
            if given and isinstance(event, Started):  # the parent holds the cut it sent us
                event = replace(event, words=None)  # restored by child_events
            write_frame(stdout, event)
    except (BrokenPipeError, OSError):
        return 0
    return 0


def _yield_the_cpu() -> None:
    """Run at a lower priority than the parent; where the platform cannot, at the same one."""
    try:
        os.nice(CHILD_NICENESS)
    except (AttributeError, OSError):  # no os.nice (Windows) or not permitted
        pass


def _exit_on_eof(stdin) -> None:  # noqa: ANN001
    """The parent closes our stdin to stop us (or its death does): leave at once, mid-merge."""
    while stdin.read(65536):
        pass
    os._exit(0)


if __name__ == "__main__":  # pragma: no cover - the child's entry point
    sys.exit(main())
