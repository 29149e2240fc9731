"""``bpe-explorer serve [--port N] [--host HOST] [FILE...]``: the explorer app in a web browser.

``textual-serve`` runs a small web server; each browser tab that opens the page gets its own copy of
the app (``bpe-explorer FILE...`` as a child process, driven through Textual's web driver) and a
terminal drawn by xterm.js in the page. Everything else is the app as in a terminal: same keys, same
tabs. By default it listens on ``localhost`` only: whoever reaches the port runs the app as you, with
your files and your cache (``--host 0.0.0.0`` exposes it to the network -- only on one you trust).

Files are checked before the server starts, so a typo fails here in one line and not in every tab.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from bpe_engine.core.text_files import read_text_file

DEFAULT_PORT = 8000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the explorer app to a web browser (textual-serve)",
        description="Serve the explorer app on http://HOST:PORT through textual-serve: each browser tab runs its own "
        "copy of the app on FILE(s) (or the sample corpus). Ctrl+C stops the server.",
    )
    parser.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})")
    parser.add_argument(
        "--host", default="localhost",
        help="address to listen on (default localhost: only this machine; anyone who reaches it runs the app as you)",
    )  # fmt: skip
    parser.add_argument("files", nargs="*", metavar="FILE", help="corpus files the app opens (default: the sample corpus)")
    parser.set_defaults(func=run)


def app_command(files: list[str]) -> str:
    """The shell command textual-serve starts for each browser tab: this Python, this bpe-explorer.

    >>> app_command([])  # doctest: +ELLIPSIS
    '... -m bpe_cli.main'
    """
    paths = [str(Path(f).expanduser().resolve()) for f in files]
    return shlex.join([sys.executable, "-m", "bpe_cli.main", *paths])


def run(args: argparse.Namespace) -> int:
    for path in args.files:
        read_text_file(path)  # fails now, in one line, rather than in every browser tab
    from textual_serve.server import Server  # late: only this command needs the web server

    server = Server(app_command(args.files), host=args.host, port=args.port, title="bpe-explorer")
    server.serve()
    return 0


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {value!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, got {port}")
    return port


__all__ = ["DEFAULT_PORT", "app_command", "register", "run"]
