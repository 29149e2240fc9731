"""``bpe-explorer serve [--port N] [--host HOST] [FILE...]``: the explorer app in a web browser.

``textual-serve`` runs a small web server; each browser tab that opens the page gets its own copy of
the app (``bpe-explorer FILE...`` as a child process, driven through Textual's web driver) and a
terminal drawn by xterm.js in the page. Everything else is the app as in a terminal: same keys, same
tabs. By default it listens on ``localhost`` only: whoever reaches the port runs the app as you, with
your files and your cache (``--host 0.0.0.0`` exposes it to the network -- only on one you trust).

Files are checked before the server starts, so a typo fails here in one line and not in every tab.
Each tab's app ends when the tab goes, when the server stops (ctrl+c, SIGTERM) and if the server
dies; at most ``--max-sessions`` run at once (:mod:`bpe_cli.serve_sessions` says how and why).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bpe_engine.core.text_files import read_text_file

from .serve_cap import MAX_SESSIONS, SESSION_MEMORY, SessionCap, default_session_cap

DEFAULT_PORT = 8000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the explorer app to a web browser (textual-serve)",
        description="Serve the explorer app on http://HOST:PORT through textual-serve: each browser tab runs its own "
        "copy of the app on FILE(s) (or the sample corpus); it ends when its tab closes. Ctrl+C stops the server "
        "and every app.",
    )
    parser.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})")
    parser.add_argument(
        "--host", default="localhost",
        help="address to listen on (default localhost: only this machine; anyone who reaches it runs the app as you)",
    )  # fmt: skip
    parser.add_argument(
        "--max-sessions", type=_sessions, default=None, metavar="N",
        help="most browser tabs served at once; another tab is told to wait (default: one per core, "
        f"as the free memory allows at {SESSION_MEMORY >> 30} GiB each)",
    )  # fmt: skip
    parser.add_argument("files", nargs="*", metavar="FILE", help="corpus files the app opens (default: the sample corpus)")
    parser.set_defaults(func=run)


def app_command(files: list[str]) -> list[str]:
    """The command started for each browser tab (no shell): this Python, this bpe-explorer.

    >>> app_command([])[1:]
    ['-m', 'bpe_cli.main']
    """
    return [sys.executable, "-m", "bpe_cli.main", *(str(Path(f).expanduser().resolve()) for f in files)]


def run(args: argparse.Namespace) -> int:
    for path in args.files:
        read_text_file(path)  # fails now, in one line, rather than in every browser tab
    from .serve_sessions import ExplorerServer  # late: only this command needs the web server

    cap = default_session_cap() if args.max_sessions is None else SessionCap.chosen(args.max_sessions)
    server = ExplorerServer(app_command(args.files), cap=cap, host=args.host, port=args.port, title="bpe-explorer")
    try:
        server.serve()
    finally:
        server.kill_all()  # nothing is left running if the loop ended some other way
    return 0


def _sessions(value: str) -> int:
    try:
        count = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of sessions, got {value!r}") from None
    if not 1 <= count <= MAX_SESSIONS:
        raise argparse.ArgumentTypeError(f"sessions are 1 to {MAX_SESSIONS}, got {count}")
    return count


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {value!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, got {port}")
    return port


__all__ = ["DEFAULT_PORT", "app_command", "register", "run"]
