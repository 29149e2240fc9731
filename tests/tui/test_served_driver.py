"""The app as ``bpe-explorer serve`` runs it for a browser tab ends on every way of asking, even
while it starts: the server's "quit", SIGTERM, SIGINT and the end of its input (the server gone).

Textual's web driver lost a "quit" (or a signal) that came after a resize while the app started:
the app then redrew at ~100 % CPU for ever, deaf to every later quit and signal; and it ignored
the end of its input. The app is started here exactly as the server starts it (same environment,
same packets), and each test waits for it to end, with a deadline only for failing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

import pytest

from bpe_cli.serve_sessions import DRIVER_IMPORT

STARTUP = 60.0  # failure deadline only


def packet(kind: bytes, payload: dict[str, object]) -> bytes:
    data = json.dumps(payload).encode()
    return kind + len(data).to_bytes(4, "big") + data


def started_app() -> subprocess.Popen[bytes]:
    """The app as textual-serve's AppService starts it, once its driver has started (its prelude)."""
    env = {
        **os.environ, "TEXTUAL_DRIVER": DRIVER_IMPORT, "TEXTUAL_FPS": "60", "TEXTUAL_COLOR_SYSTEM": "truecolor",
        "TERM_PROGRAM": "textual", "COLUMNS": "100", "ROWS": "30",
    }  # fmt: skip
    app = subprocess.Popen(
        [sys.executable, "-m", "bpe_cli.main"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
    )
    assert app.stdout is not None
    assert app.stdout.readline() == b"__GANGLION__\n"
    threading.Thread(target=app.stdout.read, daemon=True).start()  # the server reads all it writes
    return app


@pytest.mark.parametrize("ask", ["quit", "SIGTERM", "SIGINT", "end of input"])
def test_the_served_app_ends_when_asked_while_it_starts(ask: str) -> None:
    app = started_app()
    try:
        assert app.stdin is not None
        app.stdin.write(packet(b"M", {"type": "resize", "width": 120, "height": 40}))  # the page fits itself
        app.stdin.flush()
        if ask == "quit":
            app.stdin.write(packet(b"M", {"type": "quit"}))
            app.stdin.flush()
        elif ask == "end of input":
            app.stdin.close()
        else:
            app.send_signal(getattr(signal, ask))
        try:
            app.wait(STARTUP)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the app asked to end ({ask}) while it started was still running after {STARTUP:g} s")
    finally:
        app.kill()
        app.wait()
