"""Child processes that never outlive the process that started them.

"Nothing we start outlives what started it": pip behind ``models fetch`` and every app that
``bpe-explorer serve`` starts for a browser tab are whole programs of their own, and a ``kill -9``
of their parent (or a crash) would leave them running, re-parented to PID 1. On Linux the kernel
can end them when their parent dies, however it dies (``PR_SET_PDEATHSIG``); a small launcher sets
it and then becomes the command (``exec``), so the command needs no cooperation.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

_DIE_WITH_PARENT = (
    "import ctypes, os, signal, sys\n"
    "ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG\n"
    "if os.getppid() != int(sys.argv[1]): os._exit(1)  # the parent died before the line above\n"
    "os.execvp(sys.argv[2], sys.argv[2:])\n"
)


def dies_with_parent(command: Sequence[str]) -> list[str]:
    """``command`` run so that it is killed when this process dies, however it dies (Linux's
    ``PR_SET_PDEATHSIG``, set by a small launcher that then becomes the command): a ``kill -9``
    of a fetch left pip running. Elsewhere ``command`` as it is.

    The kernel sends the signal when the *thread* that started the child ends, so start it from a
    thread that lives as long as the process (the main thread, or an asyncio loop's)."""
    if not sys.platform.startswith("linux"):
        return list(command)
    return [sys.executable, "-c", _DIE_WITH_PARENT, str(os.getpid()), *command]


__all__ = ["dies_with_parent"]
