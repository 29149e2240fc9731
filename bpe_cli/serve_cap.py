"""How many browser sessions ``bpe-explorer serve`` runs at once, and what a refused tab is told.

Every session is a whole app process (and, while it trains, a training child), so an unbounded
number of tabs could take every core and all the memory. Kept apart from the server
(:mod:`bpe_cli.serve_sessions`) so that parsing ``--help`` imports no web server.
"""

from __future__ import annotations

from dataclasses import dataclass

from bpe_engine.corpus.parallel import usable_cores
from bpe_engine.corpus.table_size import available_memory

MAX_SESSIONS = 64
"""The most ``--max-sessions`` accepts."""
SESSION_MEMORY = 1 << 30
"""Memory one session may need: the app (~150 MB on the sample corpus) and a training child on a
corpus of a few MB; the default cap keeps every session inside what is free when the server starts."""


@dataclass(frozen=True, slots=True)
class SessionCap:
    """How many sessions may run at once, and why that many (said when one is refused).

    >>> SessionCap.chosen(3)
    SessionCap(limit=3, reason='set with --max-sessions')
    """

    limit: int
    reason: str

    @classmethod
    def chosen(cls, limit: int) -> SessionCap:
        """The cap the user gave with ``--max-sessions``."""
        return cls(limit, "set with --max-sessions")


def default_session_cap(cores: int | None = None, memory: int | None = None) -> SessionCap:
    """One session per usable core, and no more than the free memory holds at :data:`SESSION_MEMORY` each.

    >>> default_session_cap(cores=2, memory=24 << 30)
    SessionCap(limit=2, reason='the default for 2 cores and 24.0 GiB free; --max-sessions N changes it')
    >>> default_session_cap(cores=8, memory=3 << 30).limit
    3
    >>> default_session_cap(cores=4, memory=1 << 20).limit  # at least one, always
    1
    """
    cores = usable_cores() if cores is None else cores
    memory = available_memory() if memory is None else memory
    limit = cores if memory is None else min(cores, memory // SESSION_MEMORY)
    free = "" if memory is None else f" and {memory / (1 << 30):.1f} GiB free"
    why = f"the default for {cores} core{'s' * (cores != 1)}{free}; --max-sessions N changes it"
    return SessionCap(max(1, limit), why)


def refusal(running: int, cap: SessionCap) -> str:
    """What a tab beyond the cap shows in its terminal (xterm.js draws it as it is, so CR LF).

    >>> print(refusal(2, SessionCap.chosen(2)))  # doctest: +NORMALIZE_WHITESPACE
    bpe-explorer serve: 2 sessions already running, the most this server runs at once
    (2: set with --max-sessions).
    Close another bpe-explorer tab, then reload this page.
    """
    lines = (
        f"bpe-explorer serve: {running} session{'s' * (running != 1)} already running, the most this server runs at once",
        f"({cap.limit}: {cap.reason}).",
        "Close another bpe-explorer tab, then reload this page.",
    )
    return "\r\n".join(lines) + "\r\n"


__all__ = ["MAX_SESSIONS", "SESSION_MEMORY", "SessionCap", "default_session_cap", "refusal"]
